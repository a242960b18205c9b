import Foundation
import SceneFormat

/// The image file a scene probably meant when the one it names is not there:
/// `hero@2x.png` written for `Hero@2x.png` (a name that differs in case only
/// comes first, as a file system that ignores case, like the Mac's by
/// default, finds it and Linux does not), else the closest name by edit
/// distance among the PNG and JPEG files of the same folder.
enum ImageNameSuggestion {
    /// Folders with more entries than this are not searched: the hint is a kindness, not worth a long scan.
    static let maximumEntries = 10_000

    /// `; did you mean "Hero@2x.png"?` for the image `written` (resolved to `path`), or "" when nothing is close.
    static func hint(written: String, path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder), entries.count <= maximumEntries else {
            return ""
        }
        let images = entries.filter { entry in
            entry != name && ["png", "jpg", "jpeg"].contains((entry as NSString).pathExtension.lowercased())
        }.sorted()
        guard let found = KeySuggestion.nearest(to: name, among: images) else { return "" }
        // Written as the scene wrote the path, so that the hint can be pasted in.
        let slash = written.lastIndex(of: "/")
        let prefix = slash.map { String(written[...$0]) } ?? ""
        return "; did you mean \"\(prefix)\(found)\"?"
    }
}
