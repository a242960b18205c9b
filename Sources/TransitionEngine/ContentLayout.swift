import Primitives
import SceneModel

/// Where an image of `imageSize` lands inside `bounds` under a UIKit content mode.
enum ContentLayout {
    static func imageRect(imageSize: Size, in bounds: Rect, mode: ContentMode) -> Rect {
        let w = imageSize.width
        let h = imageSize.height
        switch mode {
        case .scaleToFill:
            return bounds
        case .aspectFit, .aspectFill:
            guard w > 0, h > 0 else { return bounds }
            let sx = bounds.width / w
            let sy = bounds.height / h
            let k = mode == .aspectFit ? min(sx, sy) : max(sx, sy)
            let fw = w * k
            let fh = h * k
            return Rect(x: bounds.minX + (bounds.width - fw) / 2, y: bounds.minY + (bounds.height - fh) / 2, width: fw, height: fh)
        default:
            let left = bounds.minX
            let right = bounds.maxX - w
            let centerX = bounds.minX + (bounds.width - w) / 2
            let top = bounds.minY
            let bottom = bounds.maxY - h
            let centerY = bounds.minY + (bounds.height - h) / 2
            let origin: Point
            switch mode {
            case .center: origin = Point(x: centerX, y: centerY)
            case .top: origin = Point(x: centerX, y: top)
            case .bottom: origin = Point(x: centerX, y: bottom)
            case .left: origin = Point(x: left, y: centerY)
            case .right: origin = Point(x: right, y: centerY)
            case .topLeft: origin = Point(x: left, y: top)
            case .topRight: origin = Point(x: right, y: top)
            case .bottomLeft: origin = Point(x: left, y: bottom)
            default: origin = Point(x: right, y: bottom)
            }
            return Rect(origin: origin, size: imageSize)
        }
    }
}
