public import Primitives
public import SceneModel

/// A label's text laid out in a box of one size: what the renderer draws once
/// into a bitmap (TextLayout) and the engine places as the view's content,
/// above its image and below its subviews, as UILabel's text is drawn.
///
/// The key is the text and the view's bounds size, not the view, so two
/// views showing the same label at the same size share one bitmap. Text is
/// drawn at the view's own size and then scaled with the content (stretched,
/// or left at its size by `contentSizing: final`), as Shift's snapshots are: a
/// label is not laid out again while its bounds animate.
public struct LabelKey: Hashable, Sendable {
    public let text: TextSpec
    /// The view's bounds size in points.
    public let size: Size

    public init(text: TextSpec, size: Size) {
        self.text = text
        self.size = size
    }

    /// Every label a scene shows (hidden views' left out), once each, in scene
    /// order: `from` before `to`, depth first. With the place of the first
    /// view that shows it, for messages.
    public static func labels(in scene: Scene) -> [(key: LabelKey, address: ViewAddress)] {
        let scene = scene.withPresentedFrames
        let canvas = Size(width: scene.canvas.width, height: scene.canvas.height)
        var seen = Set<LabelKey>()
        var found: [(key: LabelKey, address: ViewAddress)] = []
        for (root, screen) in [(scene.from, Screen.from), (scene.to, Screen.to)] {
            for node in ViewTree(root: root, screen: screen, canvas: canvas).nodes {
                guard let text = node.spec.text, node.size.width > 0, node.size.height > 0 else { continue }
                let key = LabelKey(text: text, size: node.size)
                if seen.insert(key).inserted { found.append((key, node.address)) }
            }
        }
        return found
    }
}
