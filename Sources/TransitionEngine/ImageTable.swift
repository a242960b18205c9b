import Primitives
import SceneModel

/// The scene's decoded images in a fixed order (first use in the scene,
/// `from` before `to`, so plans are deterministic), with their size in
/// points: pixels / canvas scale, as UIKit sizes an @2x or @3x image on a
/// screen of that scale. An image source with no decoded bitmap (not given
/// by the caller) draws nothing.
struct ImageTable: Sendable {
    let bitmaps: [Bitmap]
    private let indexBySource: [ImageSource: Int]
    private let scale: Double

    init(scene: Scene, decoded: [ImageSource: Bitmap], scale: Double) {
        var bitmaps: [Bitmap] = []
        var indexBySource: [ImageSource: Int] = [:]
        scene.forEachView { view, _, _ in
            guard let source = view.image, indexBySource[source] == nil else { return }
            let bitmap: Bitmap?
            if case .bitmap(let given) = source { bitmap = given } else { bitmap = decoded[source] }
            guard let bitmap else { return }
            indexBySource[source] = bitmaps.count
            bitmaps.append(bitmap)
        }
        self.bitmaps = bitmaps
        self.indexBySource = indexBySource
        self.scale = scale
    }

    func index(of source: ImageSource?) -> Int? {
        source.flatMap { indexBySource[$0] }
    }

    func pointSize(of index: Int) -> Size {
        Size(width: Double(bitmaps[index].width) / scale, height: Double(bitmaps[index].height) / scale)
    }
}
