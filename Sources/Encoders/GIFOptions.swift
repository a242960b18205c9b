/// How a `.gif` is made "small enough for a README": scaled down to a
/// maximum width, its rate reduced by dropping frames evenly, a palette built
/// for the whole clip and ordered dithering that changes little between frames.
public struct GIFOptions: Sendable, Hashable {
    /// Frames wider than this are scaled down (Lanczos, aspect kept). 0: never.
    public var maxWidth: Int
    /// The GIF plays at the clip's rate divided by the smallest whole number
    /// that brings it to at most this (60 fps -> 30, 50 -> 25, 24 -> 24), so
    /// kept frames are evenly spaced. `maxFramesPerSecondRange`: GIF delays
    /// are whole hundredths of a second, and browsers slow delays under 2/100 s
    /// down to 1/10 s.
    public var maxFramesPerSecond: Int
    /// How colours outside the palette are approximated.
    public var dither: GIFDither
    /// Times the animation repeats after the first play; 0 loops forever,
    /// -1 plays once. `loopCountRange`: the GIF stores 16 bits.
    public var loopCount: Int

    public init(
        maxWidth: Int = Defaults.maxWidth, maxFramesPerSecond: Int = Defaults.maxFramesPerSecond,
        dither: GIFDither = Defaults.dither, loopCount: Int = Defaults.loopCount
    ) {
        self.maxWidth = maxWidth
        self.maxFramesPerSecond = maxFramesPerSecond
        self.dither = dither
        self.loopCount = loopCount
    }

    /// The one statement of every default (the initializer's, and a CLI's).
    public enum Defaults {
        /// A README column is about this wide.
        public static let maxWidth = 480
        public static let maxFramesPerSecond = 30
        /// Ordered dithering is deterministic per pixel, so still areas do not
        /// shimmer from frame to frame and compress well.
        public static let dither = GIFDither.bayer(scale: GIFDither.defaultBayerScale)
        /// Loop forever.
        public static let loopCount = 0
    }

    public static let maxFramesPerSecondRange = 1 ... 50
    /// -1 (play once), 0 (forever) or a repeat count up to the 16 bits a GIF stores.
    public static let loopCountRange = -1 ... 65535

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
        guard Self.maxFramesPerSecondRange.contains(maxFramesPerSecond) else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "GIF maximum rate \(maxFramesPerSecond) fps "
                    + "is outside \(Self.maxFramesPerSecondRange) (GIF delays are in 1/100 s)")
        }
        guard Self.loopCountRange.contains(loopCount) else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "GIF loop count \(loopCount) is outside "
                    + "\(Self.loopCountRange) (-1 plays once, 0 loops forever; GIF stores 16 bits)")
        }
        if case .bayer(let scale) = dither, !GIFDither.bayerScaleRange.contains(scale) {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "Bayer dither scale \(scale) is outside \(GIFDither.bayerScaleRange)")
        }
    }
}

/// GIF dithering, libavfilter paletteuse's modes.
///
/// Named on a command line as `bayer`, `sierra` or `none` (`description`,
/// `init?(_:)`; `allCases` lists one of each), so a CLI can take it as an
/// argument type directly; `bayer:N` names another Bayer scale.
public enum GIFDither: Sendable, Hashable, CaseIterable, LosslessStringConvertible {
    /// Nearest palette colour: flat areas stay flat, gradients band.
    case none
    /// Ordered 8x8 Bayer pattern; scale 0 (strong pattern) ... 5 (faint).
    /// Deterministic per pixel, so static areas do not shimmer and compress well.
    case bayer(scale: Int)
    /// Error diffusion (Sierra-2-4A): smoothest gradients, larger files.
    case errorDiffusion

    public static let defaultBayerScale = 3
    public static let bayerScaleRange = 0 ... 5

    /// One of each mode, Bayer at its default scale: `bayer`, `sierra`, `none`.
    public static let allCases: [GIFDither] = [.bayer(scale: defaultBayerScale), .errorDiffusion, .none]

    /// The mode's command-line name: `bayer` (`bayer:N` at another scale), `sierra`, `none`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .errorDiffusion: return "sierra"
        case .bayer(let scale): return scale == Self.defaultBayerScale ? "bayer" : "bayer:\(scale)"
        }
    }

    /// The mode a command-line name names (see `description`); nil for any
    /// other text, and for a Bayer scale outside `bayerScaleRange`.
    public init?(_ name: String) {
        switch name {
        case "none": self = .none
        case "sierra": self = .errorDiffusion
        case "bayer": self = .bayer(scale: Self.defaultBayerScale)
        default:
            guard name.hasPrefix("bayer:"), let scale = Int(name.dropFirst(6)),
                Self.bayerScaleRange.contains(scale)
            else { return nil }
            self = .bayer(scale: scale)
        }
    }

    /// paletteuse options for this mode.
    var paletteUseOptions: String {
        switch self {
        case .none: return "dither=none"
        case .bayer(let scale): return "dither=bayer:bayer_scale=\(scale)"
        case .errorDiffusion: return "dither=sierra2_4a"
        }
    }
}
