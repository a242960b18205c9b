/// Which frames of a clip a GIF keeps, and how long each shows.
///
/// GIF delays are whole hundredths of a second. The GIF keeps every
/// `frameStep`-th frame, `frameStep` being the smallest whole number that
/// brings the rate to at most `GIFOptions.maxFramesPerSecond`, so the kept
/// frames are evenly spaced: a 60 fps clip becomes 30 fps by keeping frames
/// 0, 2, 4... Frame j then starts at round(j * 100 / rate) hundredths, so
/// delays alternate between the two nearest whole values (30 fps: 3, 4, 3,
/// 3, 4, 3...) and the total duration stays within 1/100 s of the clip's.
public struct GIFTiming: Sendable, Hashable {
    /// The clip's rate.
    public let sourceRate: FrameRate
    /// Keep one frame in this many.
    public let frameStep: Int
    /// The GIF's rate: `sourceRate / frameStep`.
    public let frameRate: FrameRate

    public init(sourceRate: FrameRate, maxFramesPerSecond: Int) {
        self.sourceRate = sourceRate
        // Smallest k with num / (den * k) <= max, in integers.
        let limit = max(1, maxFramesPerSecond) * sourceRate.denominator
        let step = max(1, (sourceRate.numerator + limit - 1) / limit)
        frameStep = step
        frameRate =
            FrameRate(numerator: sourceRate.numerator, denominator: sourceRate.denominator * step)
            ?? sourceRate
    }

    /// Whether clip frame `index` is in the GIF.
    public func keeps(_ index: Int) -> Bool { index % frameStep == 0 }

    /// GIF frames for a clip of `count` frames.
    public func gifFrameCount(forClipFrames count: Int) -> Int { (count + frameStep - 1) / frameStep }

    /// Where GIF frame `j` starts, in hundredths of a second (rounded half up,
    /// as FFmpeg rescales timestamps).
    public func start(ofFrame j: Int) -> Int {
        let numerator = j * 100 * frameRate.denominator
        return (2 * numerator + frameRate.numerator) / (2 * frameRate.numerator)
    }

    /// The delay of each of `count` GIF frames in hundredths of a second; the
    /// last frame shows as long as the one before it (FFmpeg's GIF muxer).
    public func delays(forFrames count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var delays = (0 ..< count).map { start(ofFrame: $0 + 1) - start(ofFrame: $0) }
        if count > 1 { delays[count - 1] = delays[count - 2] }
        return delays
    }
}
