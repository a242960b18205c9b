// libFuzzer target: scene bytes -> what `shiftrender validate` does with a
// file: `SceneJSON.decode`, then `SceneDiagnostics(validating:document:)`
// (the model's rules and the loading of every image the scene names). Image
// paths resolve against SHIFTRENDER_FUZZ_BASE (run.sh sets it to
// fixtures/scenes, so "../images/poster.png" and "../invalid/corrupt.png" are
// real files). Every outcome but a crash, a hang or a leak is fine: a scene
// either decodes and gets its diagnostics, or is refused with at least one problem.
import Foundation
import SceneFormat
import SceneModel
import ShiftRender

let baseDirectory: String =
    ProcessInfo.processInfo.environment["SHIFTRENDER_FUZZ_BASE"] ?? FileManager.default.currentDirectoryPath

/// One line per problem: a newline or a terminal escape from the scene would break or forge lines.
func checkOneLine(_ problems: [SceneProblem]) {
    for problem in problems {
        precondition(
            !problem.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
            "control character in message: \(problem.description.debugDescription)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let document = try SceneJSON.decode(bytes: bytes, file: "fuzz.json", directory: baseDirectory)
        let diagnostics = SceneDiagnostics(validating: document.scene, document: document)
        checkOneLine(diagnostics.problems)
        if !diagnostics.hasErrors {
            // A scene without errors keeps the format's promises.
            let canvas = document.scene.canvas
            precondition(canvas.pixelWidth >= 1 && canvas.pixelWidth <= SceneLimits.maximumCanvasPixels)
            precondition(canvas.pixelHeight >= 1 && canvas.pixelHeight <= SceneLimits.maximumCanvasPixels)
            precondition(document.scene.fps >= SceneLimits.minimumFPS && document.scene.fps <= SceneLimits.maximumFPS)
        }
    } catch {
        precondition(!error.problems.isEmpty, "a SceneFileError without problems")
        checkOneLine(error.problems)
    }
    return 0
}
