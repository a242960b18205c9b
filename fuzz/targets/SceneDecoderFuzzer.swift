// libFuzzer target: scene bytes -> SceneLoader.decode, as `shiftrender validate`
// reads a file. Image paths resolve against SHIFTRENDER_FUZZ_BASE (run.sh sets
// it to a scratch copy of fixtures/scenes beside fixtures/images and
// fixtures/invalid, so "../images/poster.png" and "../invalid/corrupt.png" are
// real files). Every outcome but a crash, a hang or a leak is fine: the loader
// either returns a checked Scene or throws a SceneError with at least one issue.
import Foundation
import SceneFormat

let baseDirectory: String =
    ProcessInfo.processInfo.environment["SHIFTRENDER_FUZZ_BASE"] ?? FileManager.default.currentDirectoryPath

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let scene = try SceneLoader.decode(bytes: bytes, file: "fuzz.json", baseDirectory: baseDirectory)
        // A returned scene keeps the module's promises.
        precondition(scene.canvas.pixelWidth >= 1 && scene.canvas.pixelWidth <= SceneLimits.maximumCanvasPixels)
        precondition(scene.canvas.pixelHeight >= 1 && scene.canvas.pixelHeight <= SceneLimits.maximumCanvasPixels)
        precondition(scene.fps > 0 && scene.fps <= SceneLimits.maximumFPS)
    } catch {
        precondition(!error.issues.isEmpty, "a SceneError without issues")
        // One line per problem: no control characters (a newline or a
        // terminal escape from the scene would break or forge lines).
        for issue in error.issues {
            precondition(!issue.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                         "control character in message: \(issue.description.debugDescription)")
        }
    }
    return 0
}
