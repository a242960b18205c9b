// libFuzzer target: PNG bytes -> the image loader. Each input is decoded from
// memory (PNGCodec.decode(data:)), then written to a scratch file and loaded
// the way a scene loads an image: SceneLoader reads the size from the header,
// refuses images over the limit, and only then decodes.
import Foundation
import PNGCodec
import SceneFormat

let scratch: String = {
    let dir = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/shiftrender-fuzz-image-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}()
let scene = Array("""
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
    do {
        let scene = try SceneLoader.decode(bytes: scene, file: "fuzz.json", baseDirectory: scratch)
        let image = scene.images[file]!
        precondition(image.width <= SceneLimits.maximumImagePixels && image.height <= SceneLimits.maximumImagePixels)
    } catch {
        precondition(error.issues.count == 1, "one bad image should be one issue: \(error.issues)")
        precondition(error.issues[0].path == "from.image", "\(error.issues)")
    }
    return 0
}
