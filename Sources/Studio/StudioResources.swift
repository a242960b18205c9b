import Foundation

/// The page's three files, read once at start from the package's resource
/// folder, and served only by these fixed names: no part of a request's path
/// ever reaches the file system.
///
/// The folder is looked up by hand rather than through `Bundle.module`,
/// whose generated accessor stops the process when the folder is missing (a
/// binary copied without it); here that is a clear startup error instead.
struct StudioResources: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    /// SwiftPM's name for the Studio target's resources of the `shiftrender` package.
    static let bundleName = "shiftrender_Studio.resources"

    static let served: [(route: String, name: String, contentType: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/studio.js", "studio.js", "text/javascript; charset=utf-8"),
        ("/studio.css", "studio.css", "text/css; charset=utf-8"),
    ]

    let files: [String: File]

    /// What the page's HTML holds where the session's token goes (`ExportPermission`).
    static let tokenPlaceholder = "STUDIO-SESSION-TOKEN"

    /// These files with the page's token placeholder replaced by `token`.
    func withToken(_ token: String) -> StudioResources {
        var files = self.files
        if let page = files["/"] {
            let text = String(decoding: page.bytes, as: UTF8.self).replacingOccurrences(of: Self.tokenPlaceholder, with: token)
            files["/"] = File(bytes: Array(text.utf8), contentType: page.contentType)
        }
        return StudioResources(files: files)
    }

    /// Reads the files from the first candidate folder that has them all.
    static func load() throws(StudioError) -> StudioResources {
        for folder in candidateFolders() {
            var files: [String: File] = [:]
            for (route, name, contentType) in served {
                guard let data = FileManager.default.contents(atPath: folder + "/Resources/" + name) else { break }
                files[route] = File(bytes: [UInt8](data), contentType: contentType)
            }
            if files.count == served.count { return StudioResources(files: files) }
        }
        throw StudioError.missingResources(
            "the studio's page (\(bundleName)) is not beside the executable; build with `swift build` and run it from .build")
    }

    /// Beside the running executable (where SwiftPM puts it for tools and test runners), then the main bundle's folder.
    private static func candidateFolders() -> [String] {
        var folders: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent().path)
        }
        folders.append(Bundle.main.bundleURL.path)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
        return folders.map { $0 + "/" + bundleName }
    }
}
