// libFuzzer target: PNG bytes -> the image loader. Each input is decoded from
// memory (PNGCodec.decode(data:)), then written to a scratch file and loaded
// the way a scene loads an image (`Renderer(scene:)`, as `shiftrender` does):
// the size is read from the header, images over the limit are refused, and
// only then is the file decoded.
import Foundation
import PNGCodec
import SceneFormat
import SceneModel
import ShiftRender

let scratch: String = {
    let dir = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/shiftrender-fuzz-image-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}()
let sceneText = Array(
    """
    {"version": 1, "canvas": {"width": 8, "height": 8},
     "from": {"image": "input.png"}, "to": {"subviews": [{"frame": [0, 0, 4, 4], "image": "input.png", "contentMode": "aspectFit"}]}}
    """.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let bitmap = try? PNGCodec.decode(data: bytes) {
        precondition(bitmap.width > 0 && bitmap.height > 0 && bitmap.pixels.count == bitmap.width * bitmap.height * 4)
    }
    let file = scratch + "/input.png"
    // Plain stdio: FileManager.createFile writes atomically and syncs, which
    // made this target a hundred times slower.
    guard let handle = fopen(file, "wb"), fwrite(data, 1, size, handle) == size, fclose(handle) == 0 else {
        fatalError("cannot write \(file)")
    }
    guard let document = try? SceneJSON.decode(bytes: sceneText, file: "fuzz.json", directory: scratch) else {
        fatalError("the target's own scene does not decode")
    }
    do {
        let renderer = try Renderer(scene: document.scene, document: document, options: Renderer.Options(threads: 1))
        for image in renderer.timeline.images {
            precondition(image.width <= SceneLimits.maximumImagePixels && image.height <= SceneLimits.maximumImagePixels)
            precondition(image.pixels.count == image.width * image.height * 4)
        }
    } catch {
        // One bad image is one problem, at the first view that names it.
        let errors = error.diagnostics?.errors ?? []
        precondition(error.kind == .invalidScene && errors.count == 1, "one bad image should be one problem: \(error)")
        precondition(errors[0].place.description == "from.image", "\(errors)")
    }
    return 0
}
