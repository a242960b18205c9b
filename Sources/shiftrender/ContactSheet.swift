import Compositor
import FramePlan
import Foundation
import Primitives

/// A grid of frames with their index and time under each, to see a whole
/// transition at a glance. Thumbnails are drawn by the compositor from the
/// full frames, so they get its filtering.
struct ContactSheet {
    static let maximumTiles = 12
    static let thumbnailWidth = 240.0

    /// Up to `maximumTiles` frames spread evenly over `range`, first and last included.
    static func pick(_ range: ClosedRange<Int>) -> [Int] {
        let count = min(range.count, maximumTiles)
        guard count > 1 else { return [range.lowerBound] }
        return (0..<count).map { range.lowerBound + Int((Double($0) * Double(range.count - 1) / Double(count - 1)).rounded()) }
    }

    static func render(frames: [(index: Int, bitmap: Bitmap)], fps: Double, background: RGBAColor) -> Bitmap {
        guard let first = frames.first?.bitmap else { return Bitmap(width: 1, height: 1) }
        let columns = min(frames.count, 4)
        let rows = (frames.count + columns - 1) / columns
        let scale = min(1, thumbnailWidth / Double(first.width))
        let tileWidth = (Double(first.width) * scale).rounded(), tileHeight = (Double(first.height) * scale).rounded()
        let gap = 12.0, labelHeight = 24.0, pixel = 2.0
        let width = Int(Double(columns) * (tileWidth + gap) + gap)
        let height = Int(Double(rows) * (tileHeight + labelHeight + gap) + gap)
        var sheet = Bitmap(width: width, height: height)
        Compositor.fill(&sheet, with: RGBAColor(red: 0.12, green: 0.12, blue: 0.14))
        var items: [DrawItem] = []
        for (k, frame) in frames.enumerated() {
            let x = gap + Double(k % columns) * (tileWidth + gap)
            let y = gap + Double(k / columns) * (tileHeight + labelHeight + gap)
            let tile = RoundedRect(rect: Rect(x: x, y: y, width: tileWidth, height: tileHeight))
            if background.alpha < 1 {
                items.append(DrawItem(transform: .identity, shape: tile, paint: .solid(RGBAColor(red: 0.5, green: 0.5, blue: 0.5))))
            }
            items.append(DrawItem(transform: .identity, shape: tile, paint: .bitmap(.image(k)), label: "frame \(frame.index)"))
            let time = String(format: "%.3f s", Double(frame.index) / fps)
            let long = "frame \(frame.index)  \(time)"
            let label = LabelFont.textWidth(long, pixel: pixel) <= tileWidth ? long : "\(frame.index)  \(time)"
            items += LabelFont.items(label, origin: Point(x: x, y: y + tileHeight + 6), pixel: pixel,
                                     color: RGBAColor(red: 0.9, green: 0.9, blue: 0.92))
        }
        Compositor.draw(DisplayList(items: items), onto: &sheet, images: frames.map(\.bitmap))
        return sheet
    }
}
