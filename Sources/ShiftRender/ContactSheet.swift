import Compositor
import FramePlan
import Foundation
import Primitives

/// A grid of frames with their index and time under each, to see a whole
/// transition at a glance. The sheet is laid out first and each frame is drawn
/// into its tile as soon as it is rendered, so memory holds one frame and the
/// sheet, not every frame. Thumbnails are drawn by the compositor from the full
/// frames, so they get its filtering.
public struct ContactSheet {
    static let maximumTiles = 12
    static let thumbnailWidth = 240.0
    static let gap = 12.0, labelHeight = 24.0, labelPixel = 2.0

    let columns: Int
    let tileWidth: Double
    let tileHeight: Double
    let fps: Double
    let background: RGBAColor
    private(set) var sheet: Bitmap

    /// Up to `maximumTiles` frames spread evenly over `range`, first and last included.
    static func pick(_ range: ClosedRange<Int>) -> [Int] {
        let count = min(range.count, maximumTiles)
        guard count > 1 else { return [range.lowerBound] }
        return (0 ..< count).map { range.lowerBound + Int((Double($0) * Double(range.count - 1) / Double(count - 1)).rounded()) }
    }

    /// A sheet for `count` frames of `frameWidth` x `frameHeight` pixels.
    init(count: Int, frameWidth: Int, frameHeight: Int, fps: Double, background: RGBAColor) {
        columns = max(1, min(count, 4))
        let rows = (max(count, 1) + columns - 1) / columns
        let scale = min(1, Self.thumbnailWidth / Double(max(frameWidth, 1)))
        tileWidth = max(1, (Double(frameWidth) * scale).rounded())
        tileHeight = max(1, (Double(frameHeight) * scale).rounded())
        self.fps = fps
        self.background = background
        let width = Int(Double(columns) * (tileWidth + Self.gap) + Self.gap)
        let height = Int(Double(rows) * (tileHeight + Self.labelHeight + Self.gap) + Self.gap)
        sheet = Bitmap(width: width, height: height)
        Compositor.fill(&sheet, with: RGBAColor(red: 0.12, green: 0.12, blue: 0.14))
    }

    /// Size in bytes of the sheet for `count` frames of this size.
    static func byteCount(count: Int, frameWidth: Int, frameHeight: Int) -> Int {
        let columns = max(1, min(count, 4))
        let rows = (max(count, 1) + columns - 1) / columns
        let scale = min(1, thumbnailWidth / Double(max(frameWidth, 1)))
        let w = (Double(frameWidth) * scale).rounded()
        let h = (Double(frameHeight) * scale).rounded()
        return Int(Double(columns) * (w + gap) + gap) * Int(Double(rows) * (h + labelHeight + gap) + gap) * 4
    }

    /// A sheet of the given frames, in order, each labelled with its clip frame index and time.
    public static func sheet(_ frames: [(index: Int, bitmap: Bitmap)], fps: Double, background: RGBAColor) -> Bitmap {
        guard let first = frames.first?.bitmap else { return Bitmap(width: 1, height: 1) }
        var sheet = ContactSheet(
            count: frames.count, frameWidth: first.width, frameHeight: first.height, fps: fps,
            background: background)
        for (tile, frame) in frames.enumerated() { sheet.draw(frame.bitmap, index: frame.index, tile: tile) }
        return sheet.sheet
    }

    /// Draws `frame` (clip frame `index`) into tile `tile`, with its label.
    mutating func draw(_ frame: Bitmap, index: Int, tile: Int) {
        let x = Self.gap + Double(tile % columns) * (tileWidth + Self.gap)
        let y = Self.gap + Double(tile / columns) * (tileHeight + Self.labelHeight + Self.gap)
        let shape = RoundedRect(rect: Rect(x: x, y: y, width: tileWidth, height: tileHeight))
        var items: [DrawItem] = []
        if background.alpha < 1 {
            items.append(DrawItem(transform: .identity, shape: shape, paint: .solid(RGBAColor(red: 0.5, green: 0.5, blue: 0.5))))
        }
        items.append(DrawItem(transform: .identity, shape: shape, paint: .bitmap(.image(0)), label: "frame \(index)"))
        let time = String(format: "%.3f s", Double(index) / fps)
        let long = "frame \(index)  \(time)"
        let label = LabelFont.textWidth(long, pixel: Self.labelPixel) <= tileWidth ? long : "\(index)  \(time)"
        items += LabelFont.items(
            label, origin: Point(x: x, y: y + tileHeight + 6), pixel: Self.labelPixel,
            color: RGBAColor(red: 0.9, green: 0.9, blue: 0.92))
        Compositor.draw(DisplayList(items: items), onto: &sheet, images: [frame])
    }
}
