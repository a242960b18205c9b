// libFuzzer target: font-file bytes -> `Typesetter.render`, as a scene's
// `"font": {"file": ...}` reaches it: each input is written to a scratch file
// and three labels are set and drawn in it (a wrapped paragraph, a truncated
// line, a right-to-left one), with characters from the seed fonts' scripts
// (run.sh seeds with small Noto fonts: Ogham, Lycian, Tagalog, Hatran) so
// their glyphs are shaped and rasterized; what the file lacks comes from the
// installed fallback faces. A font either draws, with a bitmap of
// ceil(size * scale) pixels, or is refused as `fontFileMalformed`.
import Foundation
import Primitives
import SceneModel
import TextLayout

let scratch: String = {
    let dir = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/shiftrender-fuzz-font-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}()
let font = FontSpec(file: "input.otf", size: 15)
let labels = [
    TextSpec("Hg fi AV \u{1681}\u{1682}\u{1683} \u{10280}\u{10281} wraps", font: font, alignment: .justified,
             numberOfLines: 0, lineBreakMode: .byWordWrapping, letterSpacing: 0.5),
    TextSpec("\u{1703}\u{1712}\u{1714}\u{1703} truncated at the tail of one line", font: font, lineBreakMode: .byTruncatingMiddle),
    TextSpec("\u{108E0}\u{108E1}\u{108E2} \u{05E9}\u{05DC}", font: font, alignment: .natural, lineHeightMultiple: 1.3),
]
let box = Size(width: 90.5, height: 48)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = scratch + "/input.otf"
    // Plain stdio: FileManager.createFile writes atomically and syncs, which is far slower.
    guard let handle = fopen(file, "wb"), fwrite(data, 1, size, handle) == size, fclose(handle) == 0 else {
        fatalError("cannot write \(file)")
    }
    // A typesetter of its own per input: faces are cached by path, and the path's bytes change every time.
    let typesetter = Typesetter()
    for (i, label) in labels.enumerated() {
        do {
            let rendered = try typesetter.render(label, in: box, scale: i == 0 ? 2 : 3, directory: scratch)
            let scale = i == 0 ? 2.0 : 3.0
            precondition(rendered.bitmap.width == Int((box.width * scale).rounded(.up)))
            precondition(rendered.bitmap.height == Int((box.height * scale).rounded(.up)))
            for line in rendered.layout.lines {
                precondition(line.x.isFinite && line.baseline.isFinite && line.width.isFinite, "\(line)")
                precondition(line.glyphs.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite })
            }
        } catch {
            precondition(error.kind == .fontFileMalformed, "a font file is drawn or refused as malformed: \(error.kind) \(error)")
            return 0
        }
    }
    return 0
}
