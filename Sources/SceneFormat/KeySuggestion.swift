/// Finds the known key closest to a misspelt one (Levenshtein distance,
/// case-insensitive), for "did you mean" hints.
///
/// People write scenes from UIKit and Shift code, whose spellings are often
/// too far from ours for an edit distance (`scaleAspectFill` is 5 edits from
/// `aspectFill`, `layer.cornerRadius` 6 from `cornerRadius`), so those are
/// looked up first, by name: the hint then names our spelling however far it is.
public enum KeySuggestion {
    /// UIKit's (and Shift's, and Hero's) spellings of what the format spells
    /// otherwise, keys and values alike. A hint with a dot is a key inside
    /// another (`shadow.color`) and is offered where its first part is known.
    static let foreignSpellings: [String: String] = [
        // UIView and CALayer keys.
        "clipsToBounds": "masksToBounds",
        "hidden": "isHidden",
        "opacity": "alpha",
        "background": "backgroundColor",
        "backgroundColor": "background",
        "center": "frame",
        "bounds": "frame",
        "shadowColor": "shadow.color",
        "shadowOpacity": "shadow.opacity",
        "shadowRadius": "shadow.radius",
        "shadowOffset": "shadow.offset",
        // CAGradientLayer's properties written on the view itself.
        "colors": "gradient.colors",
        "locations": "gradient.locations",
        "startPoint": "gradient.startPoint",
        "endPoint": "gradient.endPoint",
        // Shift's per-view options (`view.shift.id` ...) written on the view itself; Hero's id.
        "id": "shift.id",
        "heroID": "shift.id",
        "contentAnimation": "shift.contentAnimation",
        "contentSizing": "shift.contentSizing",
        "animations": "shift.animations",
        // Timing keys written on the view itself instead of in its `shift`.
        "duration": "shift.duration",
        "delay": "shift.delay",
        "curve": "shift.curve",
        "cascade": "shift.cascade",
        "arc": "shift.arc",
        "keyframes": "shift.keyframes",
        // Core Animation's, Hero's and SwiftUI's words for a curve and a Bézier, and UIKit's spring arguments.
        "timingFunction": "curve",
        "bezier": "cubicBezier",
        "controlPoints": "cubicBezier",
        "timingCurve": "cubicBezier",
        "spring": "curve",
        "usingSpringWithDamping": "dampingRatio",
        "initialSpringVelocity": "initialVelocity",
        "velocity": "initialVelocity",
        // Curve names: CAMediaTimingFunctionName's and CSS's `ease` (Core Animation's default curve).
        "easeInEaseOut": "easeInOut",
        "ease": "default",
        // UIView.ContentMode.
        "scaleAspectFill": "aspectFill",
        "scaleAspectFit": "aspectFit",
        "redraw": "scaleToFill",
        // Shift's ContentAnimation.none: only the final content shows, our `final`.
        "none": "final",
        // Gradient types as CSS, Skia and design tools name them (CAGradientLayerType's are ours).
        "linear": "axial",
        "sweep": "conic",
        "angular": "conic",
        // Navigation words for the direction.
        "push": "present",
        "pop": "dismiss",
        // The transition's keys written on a view or at the top level (a hint naming `transition.` is offered anywhere).
        "navigation": "transition.navigation",
        "presentation": "transition.presentation",
        // UIKit's modal presentation: UIViewController.modalPresentationStyle and UIModalPresentationStyle's
        // cases that have an equivalent (automatic is a page sheet on iPhone since iOS 13).
        "modalPresentationStyle": "presentation",
        "pageSheet": "sheet",
        "formSheet": "sheet",
        "automatic": "sheet",
        "fullScreen": "overFullScreen",
        "overCurrentContext": "overFullScreen",
        "currentContext": "overFullScreen",
        // Edges and directions: seed 004's leading and trailing edges are Hero's left and right (left to right).
        "left": "leading",
        "right": "trailing",
        "leading": "left",
        "trailing": "right",
    ]

    /// Our spelling of a UIKit or Shift one, when `known` has it. Accepts the
    /// forms code has: `layer.cornerRadius`, `.scaleAspectFill`,
    /// `UIViewContentModeScaleAspectFill`, `UIView.ContentMode.redraw`,
    /// CALayer's `shadowColor` inside `shadow`, CAGradientLayerType's
    /// `kCAGradientLayerRadial` and `CAGradientLayerType.radial`, and
    /// CAMediaTimingFunctionName's `kCAMediaTimingFunctionEaseIn` and `.easeInEaseOut`.
    static func foreign(_ key: String, among known: [String]) -> String? {
        let offered = { (hint: String) in hint.hasPrefix("transition.") || known.contains(String(hint.split(separator: ".")[0])) }
        var name = Substring(key)
        var names = [name]
        for prefix in [
            "UIView.ContentMode.", "UIViewContentMode", "CAGradientLayerType.", "kCAGradientLayer", "CAMediaTimingFunctionName.",
            "kCAMediaTimingFunction", "UIModalPresentationStyle.", "UIModalPresentation", "layer.", "view.", ".",
            "shadow",
        ] where name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
            names.append(name)
        }
        for name in names.reversed() where !name.isEmpty {
            let plain = name.prefix(1).lowercased() + name.dropFirst()
            if plain != key, known.contains(plain) { return plain }
            if let hint = foreignSpellings[plain], offered(hint) { return hint }
        }
        return nil
    }

    static func closest(to key: String, among known: [String]) -> String? {
        if let hint = foreign(key, among: known) { return hint }
        return nearest(to: key, among: known)
    }

    /// The candidate plausibly meant by `word`, by edit distance alone and
    /// ignoring case (so a candidate differing only in case comes first): for
    /// names that are not the format's, such as the image files beside a scene.
    public static func nearest(to word: String, among known: [String]) -> String? {
        let target = Array(word.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in known {
            let d = distance(target, Array(candidate.lowercased()))
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        guard let best else { return nil }
        // Suggest only when the key is plausibly a typo of the candidate.
        let limit = max(2, min(target.count, best.key.count) / 3)
        return best.distance <= limit ? best.key : nil
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0 ... b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            current[0] = i
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
