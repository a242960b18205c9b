import Primitives
import SceneFormat

/// The scene's decoded images in a fixed order (sorted by path, so plans are
/// deterministic), with their size in points: pixels / canvas scale, as
/// UIKit sizes an @2x or @3x image on a screen of that scale.
struct ImageTable: Sendable {
    let bitmaps: [Bitmap]
    private let indexByPath: [String: Int]
    private let scale: Double

    init(images: [String: Bitmap], scale: Double) {
        let paths = images.keys.sorted()
        self.bitmaps = paths.map { images[$0]! }
        self.indexByPath = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, $0) })
        self.scale = scale
    }

    func index(of reference: ImageReference?) -> Int? {
        reference.flatMap { indexByPath[$0.resolvedPath] }
    }

    func pointSize(of index: Int) -> Size {
        Size(width: Double(bitmaps[index].width) / scale, height: Double(bitmaps[index].height) / scale)
    }
}
