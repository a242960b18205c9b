// libFuzzer target: any bytes -> a label (`FuzzedLabel`, Tests/TextLayoutTests/FuzzedLabel.swift, shared with
// `BadInputTests`; fuzz/build.sh compiles it in) -> `Typesetter.render`, the text path every command and the studio
// take for a scene's `text`. Beyond "no crash", the promises `FuzzedLabel.brokenPromise` checks: drawn or refused
// as too long, a bitmap of the box's size, finite lines whose ranges lie in the string, the same layout twice.
import TextLayout

/// One typesetter for the run: its face and glyph caches are what a long render or the studio keeps too.
let typesetter = Typesetter()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let label = FuzzedLabel(bytes: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    if let broken = label.brokenPromise(typesetter) { fatalError("\(label.text): \(broken)") }
    return 0
}
