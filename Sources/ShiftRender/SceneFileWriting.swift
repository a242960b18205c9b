import Foundation
import OutputFiles
import PNGCodec
import SceneFormat
import SceneModel

extension Scene {
    /// Writes the scene as a JSON file at `path` that reads back to the same
    /// scene (and the same pixels). Images held in memory (`.encoded` PNG or
    /// JPEG data, written as it is; `.bitmap` pixels, written as PNG), which
    /// JSON cannot hold, are first written as files into a folder beside it
    /// (`card.json` -> `card-images/`), named by a fingerprint of their
    /// bytes so the same image is written once, and the
    /// scene names them there. Relative image paths are kept when the file is
    /// written into `directory`, and made absolute otherwise, so they still
    /// point at the same files. Like every output, it is refused when the file
    /// is there and `overwrite` is false, or is an input of a render; nothing
    /// is left half-written. Returns the scene as written (its images as files).
    @discardableResult
    public func writeJSON(toFileAt path: String, overwrite: Bool = false) throws(RenderError) -> Scene {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        let imagesFolder = url.deletingPathExtension().lastPathComponent + "-images"
        var written = self
        var images: [String: [UInt8]] = [:]
        func rewrite(_ view: View) throws(RenderError) -> View {
            var view = view
            switch view.image {
            case .file(let given)?:
                let sameFolder =
                    URL(fileURLWithPath: directory ?? FileManager.default.currentDirectoryPath)
                    .standardizedFileURL.path == folder
                if !given.hasPrefix("/") && !sameFolder { view.image = .file(SceneImages.resolve(given, directory: directory)) }
            case .encoded(let bytes)?:
                view.image = .file(name(for: bytes, in: &images))
            case .bitmap(let bitmap)?:
                do {
                    view.image = .file(name(for: try PNGCodec.encode(bitmap), in: &images))
                } catch {
                    throw RenderError(.output, "cannot encode an in-memory image as PNG: \(error)")
                }
            case nil: break
            }
            var subviews: [View] = []
            for subview in view.subviews { subviews.append(try rewrite(subview)) }
            view.subviews = subviews
            return view
        }
        func name(for bytes: [UInt8], in images: inout [String: [UInt8]]) -> String {
            // The extension is for people: a scene reads the format from the bytes.
            let suffix = ImageFormat(sniffing: bytes) == .jpeg ? ".jpg" : ".png"
            let name = imagesFolder + "/image-" + String(SceneDigest.fnv1a(bytes), radix: 16) + suffix
            images[name] = bytes
            return name
        }
        written.from = try rewrite(from)
        written.to = try rewrite(to)
        written.directory = folder
        let json: [UInt8]
        do {
            json = try SceneJSON.encode(written)
        } catch {
            throw RenderError(.usage, "cannot write the scene as JSON: \(error)")
        }
        do {
            if !images.isEmpty {
                try FileManager.default.createDirectory(atPath: folder + "/" + imagesFolder, withIntermediateDirectories: true)
            }
            for (name, bytes) in images.sorted(by: { $0.key < $1.key }) {
                // Named by its bytes: one already there with those bytes is this image.
                let target = folder + "/" + name
                if FileManager.default.contents(atPath: target).map({ [UInt8]($0) == bytes }) == true { continue }
                try Self.write(bytes, to: target, overwrite: true)
            }
            try Self.write(json, to: path, overwrite: overwrite)
        } catch let error as RenderError {
            throw error
        } catch let error as OutputError {
            throw RenderError(error)
        } catch {
            throw RenderError(.output, "\(error)")
        }
        return written
    }

    private static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws {
        try AtomicOutput.writeFile(at: path, overwrite: overwrite) { temporary in
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            try handle.write(contentsOf: bytes)
        }
    }
}
