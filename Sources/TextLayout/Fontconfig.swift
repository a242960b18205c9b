import CFontconfig
import Synchronization

/// A font file and the face in it: what a `FontSpec` resolves to.
public struct ResolvedFont: Sendable, Hashable {
    public var path: String
    /// The face in a collection (and, above bit 16, a variable font's named instance), as fontconfig's `index`.
    public var faceIndex: Int

    public init(path: String, faceIndex: Int) {
        self.path = path
        self.faceIndex = faceIndex
    }
}

/// fontconfig, behind one process-wide lock (its configuration is shared
/// state, and older releases are not thread-safe), used for two questions:
/// which file a family, weight and slant name, and which installed faces
/// come after it for characters it lacks. The fallback order depends only
/// on the installed fonts, so it is worked out once per process and request.
enum Fontconfig {
    private struct Shared {
        /// Whether FcInit succeeded (nil: not tried yet).
        var initialized: Bool?
        var fallbacks: [FallbackRequest: FallbackFaces] = [:]
    }

    struct FallbackRequest: Hashable {
        var family: String
        var weightClass: Int
        var italic: Bool
    }

    /// Every fontconfig call takes this lock.
    private static let lock = Mutex(Shared())

    private static func withConfig<R>(_ body: (inout Shared) -> R) throws(TextError) -> R {
        let result: R? = lock.withLock { shared in
            if shared.initialized == nil { shared.initialized = FcInit() != 0 }
            return shared.initialized == true ? body(&shared) : nil
        }
        guard let result else { throw TextError(.libraryFailure, "fontconfig could not load its configuration") }
        return result
    }

    /// The file fontconfig matches for `family` at `weightClass` (100...900) and slant, refusing
    /// a match from another family (fontconfig substitutes a default face for any unknown name).
    static func match(family: String, weightClass: Int, italic: Bool) throws(TextError) -> ResolvedFont {
        let found: (ResolvedFont?, [String]) = try withConfig { _ in
            guard let pattern = makePattern(family: family, weightClass: weightClass, italic: italic) else { return (nil, []) }
            defer { FcPatternDestroy(pattern) }
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else { return (nil, []) }
            defer { FcPatternDestroy(match) }
            return (resolvedFont(of: match), strings(of: match, FC_FAMILY))
        }
        guard let font = found.0, found.1.contains(where: { sameFamily($0, family) }) else {
            let instead = found.1.first.map { " (fontconfig would substitute \"\($0)\")" } ?? ""
            throw TextError(.familyNotFound, "no installed font family \"\(family)\"\(instead)")
        }
        return font
    }

    /// fontconfig's sorted list of every installed face for this request, with each one's character set.
    static func fallbacks(for request: FallbackRequest) throws(TextError) -> FallbackFaces {
        try withConfig { shared in
            if let known = shared.fallbacks[request] { return known }
            let made = FallbackFaces(sortedFaces(request))
            shared.fallbacks[request] = made
            return made
        }
    }

    /// FcFontSort's list for `request` (the caller holds the lock).
    private static func sortedFaces(_ request: FallbackRequest) -> [FallbackFaces.Candidate] {
        guard let pattern = makePattern(family: request.family, weightClass: request.weightClass, italic: request.italic) else {
            return []
        }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        guard let set = FcFontSort(nil, pattern, 0, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var list: [FallbackFaces.Candidate] = []
        for i in 0 ..< Int(max(0, set.pointee.nfont)) {
            guard let font = set.pointee.fonts[i], let resolved = resolvedFont(of: font) else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                  let owned = FcCharSetCopy(charset)
            else { continue }
            list.append(FallbackFaces.Candidate(font: resolved, charset: owned))
        }
        return list
    }

    /// Runs `body` under the fontconfig lock (for `FallbackFaces`' character-set reads).
    static func locked<R>(_ body: () -> R) -> R { lock.withLock { _ in body() } }

    /// fontconfig compares family names ignoring case and blanks; so do we.
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        func folded(_ s: String) -> String { s.lowercased().filter { $0 != " " } }
        return folded(a) == folded(b)
    }

    private static func makePattern(family: String, weightClass: Int, italic: Bool) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        let added = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
        }
        guard added != 0,
              FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(weightClass))) != 0,
              FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN) != 0,
              FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0
        else {
            FcPatternDestroy(pattern)
            return nil
        }
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func resolvedFont(of pattern: OpaquePointer) -> ResolvedFont? {
        guard let file = strings(of: pattern, FC_FILE).first else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return ResolvedFont(path: file, faceIndex: Int(index))
    }

    private static func strings(of pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var n: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value {
            values.append(String(cString: value))
            n += 1
        }
        return values
    }
}

/// fontconfig's fallback order for one request: the first face whose
/// character set has a character is the one that draws it. Answers are
/// remembered per character.
final class FallbackFaces: @unchecked Sendable {
    struct Candidate {
        var font: ResolvedFont
        /// A reference of our own to the face's FcCharSet, read only under `Fontconfig.locked`.
        var charset: OpaquePointer
    }

    private let candidates: [Candidate]
    private let answers = Mutex<[UInt32: [ResolvedFont]]>([:])

    init(_ candidates: [Candidate]) { self.candidates = candidates }

    deinit { Fontconfig.locked { for candidate in candidates { FcCharSetDestroy(candidate.charset) } } }

    /// The faces (best first) whose character set has `scalar`.
    func faces(for scalar: UInt32) -> [ResolvedFont] {
        if let known = answers.withLock({ $0[scalar] }) { return known }
        let found = Fontconfig.locked {
            candidates.filter { FcCharSetHasChar($0.charset, scalar) != 0 }.map(\.font)
        }
        answers.withLock { $0[scalar] = found }
        return found
    }
}
