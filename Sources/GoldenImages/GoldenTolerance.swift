/// How far a rendered image may stray from its golden and still match.
public struct GoldenTolerance: Sendable, Hashable {
    /// The largest difference allowed in any channel of any pixel, 0...255.
    public var maxChannelDifference: Int

    public init(maxChannelDifference: Int = 3) {
        self.maxChannelDifference = maxChannelDifference
    }

    public static let standard = GoldenTolerance()
}
