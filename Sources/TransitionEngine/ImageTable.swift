import Primitives
import SceneModel

/// The scene's decoded images in a fixed order (first use in the scene,
/// `from` before `to`, so plans are deterministic), with their size in
/// points: pixels / scale, as UIKit sizes an image. The scale is the one a
/// file's name declares (`Play@3x.png`: 3, `ImageSource.declaredScale`),
/// else the canvas scale (an image made for the screen it is drawn on). An
/// image source with no decoded bitmap (not given by the caller) draws nothing.
///
/// Labels' drawn text (`LabelKey`) follows the images, at the canvas scale.
struct ImageTable: Sendable {
    let bitmaps: [Bitmap]
    private let indexBySource: [ImageSource: Int]
    private let indexByLabel: [LabelKey: Int]
    /// Pixels per point of each bitmap.
    private let scales: [Double]

    init(scene: Scene, decoded: [ImageSource: Bitmap], labels: [LabelKey: Bitmap] = [:], scale: Double) {
        var bitmaps: [Bitmap] = []
        var scales: [Double] = []
        var indexBySource: [ImageSource: Int] = [:]
        scene.forEachView { view, _, _ in
            guard let source = view.image, indexBySource[source] == nil else { return }
            let bitmap: Bitmap?
            if case .bitmap(let given) = source { bitmap = given } else { bitmap = decoded[source] }
            guard let bitmap else { return }
            indexBySource[source] = bitmaps.count
            bitmaps.append(bitmap)
            scales.append(source.declaredScale ?? scale)
        }
        var indexByLabel: [LabelKey: Int] = [:]
        for (key, _) in labels.isEmpty ? [] : LabelKey.labels(in: scene) {
            guard let bitmap = labels[key] else { continue }
            indexByLabel[key] = bitmaps.count
            bitmaps.append(bitmap)
            scales.append(scale)
        }
        self.bitmaps = bitmaps
        self.indexBySource = indexBySource
        self.indexByLabel = indexByLabel
        self.scales = scales
    }

    func index(of source: ImageSource?) -> Int? {
        source.flatMap { indexBySource[$0] }
    }

    /// The bitmap of `text` drawn at `size` points, if the renderer gave one.
    func index(ofLabel text: TextSpec?, size: Size) -> Int? {
        text.flatMap { indexByLabel[LabelKey(text: $0, size: size)] }
    }

    func pointSize(of index: Int) -> Size {
        Size(width: Double(bitmaps[index].width) / scales[index], height: Double(bitmaps[index].height) / scales[index])
    }
}
