import Foundation
import PNGCodec
import Primitives

/// Reads a scene file from disk: JSON syntax, then the schema, then every image
/// it names (checked against the size limit from the PNG header before decoding).
public enum SceneLoader {
    public static func load(fileAt path: String) throws(SceneError) -> Scene {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "is a directory, not a scene file" : "cannot be read (permission denied?)"
            throw SceneError(file: path, kind: .unreadable, issues: [SceneIssue(path: "", message: reason)])
        }
        // Absolute, so that "looked for ..." in messages names a real place.
        let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        return try decode(bytes: [UInt8](data), file: path, baseDirectory: directory)
    }

    /// Decodes a scene from bytes; image paths are resolved against `baseDirectory`.
    public static func decode(bytes: [UInt8], file: String = "scene", baseDirectory: String) throws(SceneError) -> Scene {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw SceneError(file: file, kind: .syntax, issues: [
                SceneIssue(path: "", message: "invalid JSON: \(error.message)", line: error.line, column: error.column),
            ])
        }
        var decoder = SceneDecoder(baseDirectory: baseDirectory)
        guard var scene = decoder.decodeScene(root) else {
            throw SceneError(file: file, kind: .invalid, issues: decoder.issues)
        }
        var issues = decoder.issues
        scene.images = loadImages(of: scene, issues: &issues)
        guard issues.isEmpty else { throw SceneError(file: file, kind: .invalid, issues: issues) }
        return scene
    }

    /// Decodes each distinct image once; problems are reported at the first view naming it.
    static func loadImages(of scene: Scene, issues: inout [SceneIssue]) -> [String: Bitmap] {
        var images: [String: Bitmap] = [:]
        var failed = Set<String>()
        func visit(_ view: ViewSpec) {
            if let image = view.image, images[image.resolvedPath] == nil, !failed.contains(image.resolvedPath) {
                let path = view.path + ".image"
                do {
                    guard FileManager.default.fileExists(atPath: image.resolvedPath) else {
                        issues.append(SceneIssue(path: path, message: "image \"\(image.written)\" not found (looked for \(image.resolvedPath))"))
                        failed.insert(image.resolvedPath)
                        return
                    }
                    // A FIFO or a terminal would block the read forever, and a
                    // device such as /dev/zero is no image; directories get
                    // PNGCodec's own message.
                    if let kind = fileKind(image.resolvedPath), kind != S_IFREG, kind != S_IFDIR {
                        issues.append(SceneIssue(path: path, message: "image \"\(image.written)\" (\(image.resolvedPath)) is not a regular file; images must be PNG files"))
                        failed.insert(image.resolvedPath)
                        return
                    }
                    let size = try PNGCodec.readSize(fileAt: image.resolvedPath)
                    let limit = SceneLimits.maximumImagePixels
                    guard size.width <= limit, size.height <= limit else {
                        issues.append(SceneIssue(path: path, message: "image \"\(image.written)\" is \(size.width) x \(size.height) px; the limit is \(limit) px a side"))
                        failed.insert(image.resolvedPath)
                        return
                    }
                    images[image.resolvedPath] = try PNGCodec.decode(fileAt: image.resolvedPath)
                } catch {
                    let reason = (error as? PNGError)?.reason ?? "\(error)"
                    issues.append(SceneIssue(path: path, message: "image \"\(image.written)\" (\(image.resolvedPath)) cannot be decoded: \(reason)"))
                    failed.insert(image.resolvedPath)
                }
            }
            view.subviews.forEach(visit)
        }
        visit(scene.from)
        visit(scene.to)
        return images
    }

    /// The file type bits (`S_IFREG`, `S_IFDIR`, ...) of `path`, following symbolic links.
    static func fileKind(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
