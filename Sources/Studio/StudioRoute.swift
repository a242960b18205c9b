import Foundation

/// The studio's routes, read from a request's method and path. Only these
/// exact paths exist; every other path is 404, which is how the server keeps
/// to its own resources and frames whatever a path says.
///
/// Dot segments are refused before matching, raw or percent-encoded:
/// resolving turns `/frame/../studio.js` into `/studio.js`, and a request
/// that needed resolving is not one the page ever makes.
enum StudioRoute: Equatable, Sendable {
    case resource(String)
    case info
    case events
    case frame(Int)
    /// Where each transient view is on frame N (the timeline's highlights).
    case outlines(Int)
    case progress(Double)
    case export

    /// The route, or the refusal: 404 for an unknown or unsafe path, 405 for a known path with the wrong method.
    static func match(method: String, rawPath: String, resolvedPath: String) -> Result<StudioRoute, StudioRequestError> {
        guard isPlain(rawPath: rawPath, resolvedPath: resolvedPath), let route = route(resolvedPath) else {
            return .failure(.notFound("no such page: the studio serves /, /studio.js, /studio.css, /info.json, /events, "
                + "/frame/N.png, /outlines/N.json, /progress/P.png and POST /export"))
        }
        let wanted = route == .export ? "POST" : "GET"
        guard method == wanted else { return .failure(.methodNotAllowed(allowed: wanted)) }
        return .success(route)
    }

    /// True when the path needed no decoding tricks: no dot segments, no
    /// backslashes or NULs, and resolving it changed nothing.
    static func isPlain(rawPath: String, resolvedPath: String) -> Bool {
        guard let decoded = rawPath.removingPercentEncoding, decoded == resolvedPath else { return false }
        for path in [rawPath, decoded] {
            if path.contains("\\") || path.contains("\0") { return false }
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            if segments.contains(where: { $0 == "." || $0 == ".." }) { return false }
        }
        return rawPath.range(of: "%2e", options: .caseInsensitive) == nil
    }

    private static func route(_ path: String) -> StudioRoute? {
        switch path {
        case "/", "/studio.js", "/studio.css": return .resource(path)
        case "/info.json": return .info
        case "/events": return .events
        case "/export": return .export
        default: break
        }
        if let text = inner(path, prefix: "/frame/", suffix: ".png"), (1 ... 9).contains(text.count),
            text.allSatisfy(\.isASCIIDigit), let n = Int(text)
        {
            return .frame(n)
        }
        if let text = inner(path, prefix: "/outlines/", suffix: ".json"), (1 ... 9).contains(text.count),
            text.allSatisfy(\.isASCIIDigit), let n = Int(text)
        {
            return .outlines(n)
        }
        // Digits and one dot only: no "nan", "inf" or exponents for Double to take.
        if let text = inner(path, prefix: "/progress/", suffix: ".png"), (1 ... 20).contains(text.count),
            text.allSatisfy({ $0.isASCIIDigit || $0 == "." }), text.filter({ $0 == "." }).count <= 1, let p = Double(text)
        {
            return .progress(p)
        }
        return nil
    }

    private static func inner(_ path: String, prefix: String, suffix: String) -> Substring? {
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        return path.dropFirst(prefix.count).dropLast(suffix.count)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
