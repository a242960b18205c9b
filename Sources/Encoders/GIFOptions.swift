/// How a `.gif` is made "small enough for a README": scaled down to a
/// maximum width, its rate reduced by dropping frames evenly, a palette built
/// for the whole clip and ordered dithering that changes little between frames.
public struct GIFOptions: Sendable, Hashable {
    /// Frames wider than this are scaled down (Lanczos, aspect kept). 0: never.
    /// Default 480.
    public var maxWidth: Int
    /// The GIF plays at the clip's rate divided by the smallest whole number
    /// that brings it to at most this (60 fps -> 30, 50 -> 25, 24 -> 24), so
    /// kept frames are evenly spaced. 1...50: GIF delays are whole hundredths
    /// of a second, and browsers slow delays under 2/100 s down to 1/10 s.
    /// Default 30.
    public var maxFramesPerSecond: Int
    /// How colours outside the palette are approximated. Default `.bayer(scale: 3)`.
    public var dither: GIFDither
    /// Times the animation repeats after the first play; 0 loops forever
    /// (the default), -1 plays once.
    public var loopCount: Int

    public init(maxWidth: Int = 480, maxFramesPerSecond: Int = 30,
                dither: GIFDither = .bayer(scale: 3), loopCount: Int = 0) {
        self.maxWidth = maxWidth
        self.maxFramesPerSecond = maxFramesPerSecond
        self.dither = dither
        self.loopCount = loopCount
    }

    /// The GIF's size for frames of `width` x `height`.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard maxWidth > 0, width > maxWidth else { return (width, height) }
        let scaled = max(1, Int((Double(height) * Double(maxWidth) / Double(width)).rounded()))
        return (maxWidth, scaled)
    }

    func validate(path: String) throws {
        guard maxWidth >= 0 else {
            throw EncoderError(.invalidSettings, path: path, reason: "GIF maximum width \(maxWidth) is negative")
        }
        guard (1...50).contains(maxFramesPerSecond) else {
            throw EncoderError(.invalidSettings, path: path, reason:
                "GIF maximum rate \(maxFramesPerSecond) fps is outside 1...50 (GIF delays are in 1/100 s)")
        }
        guard (-1...65535).contains(loopCount) else {
            throw EncoderError(.invalidSettings, path: path, reason: "GIF loop count \(loopCount) is outside -1...65535")
        }
        if case .bayer(let scale) = dither, !(0...5).contains(scale) {
            throw EncoderError(.invalidSettings, path: path, reason: "Bayer dither scale \(scale) is outside 0...5")
        }
    }
}

/// GIF dithering, libavfilter paletteuse's modes.
public enum GIFDither: Sendable, Hashable {
    /// Nearest palette colour: flat areas stay flat, gradients band.
    case none
    /// Ordered 8x8 Bayer pattern; scale 0 (strong pattern) ... 5 (faint).
    /// Deterministic per pixel, so static areas do not shimmer and compress well.
    case bayer(scale: Int)
    /// Error diffusion (Sierra-2-4A): smoothest gradients, larger files.
    case errorDiffusion

    /// paletteuse options for this mode.
    var paletteUseOptions: String {
        switch self {
        case .none: return "dither=none"
        case .bayer(let scale): return "dither=bayer:bayer_scale=\(scale)"
        case .errorDiffusion: return "dither=sierra2_4a"
        }
    }
}
