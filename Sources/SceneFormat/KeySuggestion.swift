/// Finds the known key closest to a misspelt one (Levenshtein distance,
/// case-insensitive), for "did you mean" hints.
enum KeySuggestion {
    static func closest(to key: String, among known: [String]) -> String? {
        let target = Array(key.lowercased())
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
