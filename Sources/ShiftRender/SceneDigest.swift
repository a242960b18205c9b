import SceneFormat
import SceneModel

/// A short fingerprint of what a scene renders, written into every chunk
/// rendered with a frame range, so that joining refuses parts of different
/// scenes (or of the same scene with another canvas or fps).
///
/// It is FNV-1a over the scene's canonical JSON (`SceneJSON.encode`: keys in
/// a fixed order, defaults left out), so it is the same on every machine and
/// in every process, unlike `Hasher`. Images held in memory, which JSON cannot
/// name, stand in as a fingerprint of their bytes. A cryptographic hash would
/// buy nothing here: the digest guards against mistakes, not forgery.
enum SceneDigest {
    static func of(_ scene: Scene) -> String {
        var named = scene
        named.from = nameImages(scene.from)
        named.to = nameImages(scene.to)
        named.directory = nil
        let text = (try? SceneJSON.encode(named)) ?? Array(String(describing: named).utf8)
        return "fnv1a64-" + String(fnv1a(text), radix: 16)
    }

    private static func nameImages(_ view: View) -> View {
        var view = view
        switch view.image {
        case .encoded(let bytes)?: view.image = .file("#png-\(String(fnv1a(bytes), radix: 16))")
        case .bitmap(let bitmap)?:
            view.image = .file("#bitmap-\(bitmap.width)x\(bitmap.height)-\(String(fnv1a(bitmap.pixels), radix: 16))")
        default: break
        }
        view.subviews = view.subviews.map(nameImages)
        return view
    }

    static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
