import Primitives
import SceneModel
import TextLayout
import TransitionEngine

/// The labels of a scene, as the renderer needs them: every font found and
/// every string checked, each problem at the place of the view that says it
/// (`to.subviews[3].text.font` for a font that cannot be had, a warning at
/// `….text.string` for a character no installed font has); and, when asked,
/// each label (`LabelKey`) drawn once at the canvas scale for the engine.
///
/// Fonts are resolved once per spelling and folder, and labels drawn once per
/// text and size, through one process-wide `Typesetter`, so its face and glyph
/// caches serve every render of a process (the studio renders many).
struct SceneLabels: Sendable {
    var drawn: [LabelKey: Bitmap] = [:]
    var problems: [SceneProblem] = []
    /// Font files the scene names by path, resolved: inputs a render must never overwrite.
    var files: [String] = []

    static let typesetter = Typesetter()

    /// `memoryLimit` bounds the bytes all drawn labels may take, checked
    /// before any is drawn (a label is as large as its view: 10 000 full-screen
    /// labels at @3 would take 130 GB).
    init(scene: Scene, draw: Bool, memoryLimit: Double = MemoryBudget.defaultBytes) {
        let typesetter = Self.typesetter
        var resolved: [FontSpec: Bool] = [:]
        var checked = Set<TextSpec>()
        scene.forEachView { view, address, _ in
            guard let text = view.text else { return }
            let place = address.place.key("text")
            if resolved[text.font] == nil {
                do throws(TextError) {
                    let font = try typesetter.resolve(text.font, directory: scene.directory)
                    if case .file = text.font.face, !files.contains(font.path) { files.append(font.path) }
                    resolved[text.font] = true
                } catch {
                    resolved[text.font] = false
                    problems.append(SceneProblem(at: place.key("font"), error.message))
                }
            }
            // A text that cannot be shown whole is warned of once, at the first view that says it.
            guard resolved[text.font] == true, !text.string.isEmpty, checked.insert(text).inserted else { return }
            if let layout = try? typesetter.layout(text, in: Size(width: 1e6, height: 1e6), directory: scene.directory) {
                for scalar in layout.missingCharacters {
                    let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                    problems.append(
                        SceneProblem(
                            .warning, at: place.key("string"),
                            "no installed font has \(code); it shows as the font's missing-glyph box"))
                }
            }
        }
        guard draw, !problems.contains(where: { $0.severity == .error }) else { return }
        let labels = LabelKey.labels(in: scene)
        let scale = scene.canvas.scale
        let bytes = labels.reduce(0.0) { total, label in
            total + (label.key.size.width * scale).rounded(.up) * (label.key.size.height * scale).rounded(.up) * 4
        }
        if bytes > memoryLimit, let first = labels.first {
            problems.append(
                SceneProblem(
                    at: first.address.place.key("text"),
                    "the scene's \(labels.count) label\(labels.count == 1 ? "" : "s") would take "
                        + "\(MemoryEstimate.format(bytes)) to draw; the limit is \(MemoryEstimate.format(memoryLimit)) (--memory-limit)"))
            return
        }
        for (key, address) in labels {
            do throws(TextError) {
                let rendered = try typesetter.render(key.text, in: key.size, scale: scene.canvas.scale, directory: scene.directory)
                drawn[key] = rendered.bitmap
            } catch {
                problems.append(SceneProblem(at: address.place.key("text"), error.message))
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
