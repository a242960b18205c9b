/// An output made of files in one folder: a PNG sequence, a frame plan. The
/// set is the files it writes; its `isMember` tells which files in the
/// folder are of its kind, so earlier ones can be found without touching
/// anything else.
public struct FileSet: Sendable {
    /// What becomes of files of the set's kind at the target that this
    /// output does not write.
    public enum EarlierMembers: Sendable {
        /// They stay, and `AtomicOutput.warnings` says so (frames of an
        /// earlier or a disjoint range: frame numbers are absolute, so
        /// ranges rendered apart join into one sequence).
        case keep
        /// With overwriting allowed they are removed: they belong to the
        /// output being replaced and would be stale (a plan's images that
        /// its new plan.json no longer names). Without, they stay, as `keep`.
        case removeWhenOverwriting
    }

    /// What one file is called in messages ("frame"; "frames" for several).
    public var noun: String
    /// True for the paths, relative to the folder, of files an output of
    /// this kind writes ("frame_00012.png", "images/image_0003.png").
    public var isMember: @Sendable (String) -> Bool
    /// Folders inside the set, relative ("images"): made in the temporary
    /// folder when the output opens, and in the target as needed.
    public var folders: [String]
    /// Members known to be written before writing starts, checked when the
    /// output opens, so a refusal comes before the work. Every member is
    /// checked again when the output is committed.
    public var expectedMembers: [String]
    /// Members moved in after all others, in this order: a plan.json that
    /// names the others must never name a file not yet in place.
    public var lastMembers: [String]
    public var earlierMembers: EarlierMembers

    public init(
        noun: String, isMember: @escaping @Sendable (String) -> Bool, folders: [String] = [],
        expectedMembers: [String] = [], lastMembers: [String] = [], earlierMembers: EarlierMembers = .keep
    ) {
        self.noun = noun
        self.isMember = isMember
        self.folders = folders
        self.expectedMembers = expectedMembers
        self.lastMembers = lastMembers
        self.earlierMembers = earlierMembers
    }

    /// The members in the order they are moved in: by name, `lastMembers` last.
    static func moveOrder(_ members: [String], last: [String]) -> [String] {
        let present = Set(members)
        return members.sorted().filter { !last.contains($0) } + last.filter(present.contains)
    }

    /// "3 frames", "1 frame".
    func count(_ number: Int) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// "frame_00002.png ... frame_00004.png": the first and last of `names`
    /// by name, or the one.
    static func span(_ names: [String]) -> String {
        let sorted = names.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "" }
        return first == last ? first : "\(first) ... \(last)"
    }
}
