import PNGCodec
import Primitives

/// What every encoder is made with: the frame size all frames share, the
/// rate they play at, the canvas background, and each format's knobs. One
/// value serves every output, so a CLI builds it once from its options and
/// the output path picks which knobs matter.
public struct VideoSettings: Sendable, Hashable {
    /// Frame size in pixels. Every appended frame must have exactly this size.
    public var width: Int
    public var height: Int
    /// Playback rate; converted to an exact rational by `frameRate`
    /// (30 -> 30/1, 29.97 -> 30000/1001).
    public var framesPerSecond: Double
    /// H.264 (`.mp4`) constant rate factor, `crfRange`; see `Defaults.crf`.
    public var crf: Int
    /// x264 speed/size trade-off, one of `VideoSettings.x264Presets`. Also
    /// picks VP9's speed (`VP9Speed`). See `Defaults.preset`.
    public var preset: String
    /// Allows an output to replace what is at its target (ffmpeg's `-y`).
    /// Without it, an existing target is refused, for every kind: a video
    /// or GIF file, and any frame a PNG sequence writes. With it, a file is
    /// replaced when the new one is complete, and a sequence replaces
    /// exactly the frames it writes, never other files. A read-only target
    /// and an input of the run are refused either way.
    public var overwrite: Bool
    /// The canvas background. Its alpha decides whether outputs that can
    /// carry alpha do (`isTransparent`): RGBA PNGs, ProRes 4444 with alpha,
    /// VP9 yuva420p, GIF transparency. H.264 pads odd sizes with it.
    public var background: RGBAColor
    /// What H.264 does with an odd width or height (yuv420p needs even ones).
    /// Other formats take any size.
    public var oddSize: OddSizePolicy
    /// Deflate level of PNG sequences (libdeflate's, which also sets how rows are
    /// filtered: `PNGFrameWriter`), `pngCompressionLevelRange`: 0 stores, 1 is
    /// fastest, 9 is smallest. See `Defaults.pngCompressionLevel`.
    public var pngCompressionLevel: Int
    /// Threads the encoders may use (`encoderThreadsRange`): PNG frames
    /// encoded in parallel, and FFmpeg's encoder threads (and swscale's
    /// slices, whose bytes do not depend on it). nil: one per online core.
    /// x264's output depends on it (see the module notes); pin it where
    /// outputs must be byte-identical across machines.
    public var encoderThreads: Int?
    /// VP9 (`.webm`) constant quality, `vp9CRFRange`, 0 best.
    public var vp9CRF: Int
    /// GIF size, rate, dithering and looping.
    public var gif: GIFOptions
    /// The number the first frame of a PNG sequence is named with, so that
    /// ranges rendered apart (`--frames 100-199`) join into one sequence.
    public var firstFrameNumber: Int = Defaults.firstFrameNumber
    /// For a video rendered in parts: which part this is. `.mp4`, `.mov` and
    /// `.webm` then carry the chunk's label, and `VideoChunkJoiner` joins the
    /// parts without re-encoding. Other outputs ignore it.
    public var chunk: VideoChunk? = nil
    /// How many frames will come, when the caller knows: a PNG sequence then
    /// checks every name it will write before any work, not only the first.
    public var expectedFrameCount: Int? = nil

    public init(
        width: Int, height: Int, framesPerSecond: Double,
        crf: Int = Defaults.crf, preset: String = Defaults.preset, overwrite: Bool = Defaults.overwrite,
        background: RGBAColor = Defaults.background, oddSize: OddSizePolicy = Defaults.oddSize,
        pngCompressionLevel: Int = Defaults.pngCompressionLevel, encoderThreads: Int? = Defaults.encoderThreads,
        vp9CRF: Int = Defaults.vp9CRF, gif: GIFOptions = GIFOptions()
    ) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.crf = crf
        self.preset = preset
        self.overwrite = overwrite
        self.background = background
        self.oddSize = oddSize
        self.pngCompressionLevel = pngCompressionLevel
        self.encoderThreads = encoderThreads
        self.vp9CRF = vp9CRF
        self.gif = gif
    }

    /// The one statement of every default (the initializer's, and a CLI's).
    public enum Defaults {
        /// Visually lossless for UI content (PSNR above 40 dB on our test frames).
        public static let crf = 18
        public static let preset = "medium"
        public static let overwrite = false
        public static let background = RGBAColor.black
        public static let oddSize = OddSizePolicy.pad
        /// PNG's own default (`PNGCodec.defaultCompressionLevel`, which says why).
        public static let pngCompressionLevel = PNGCodec.defaultCompressionLevel
        /// nil: one thread per online core.
        public static let encoderThreads: Int? = nil
        public static let vp9CRF = 30
        public static let firstFrameNumber = 0
    }

    /// The values each knob accepts; anything else is refused with `.invalidSettings`.
    public static let crfRange = 0 ... 51
    public static let vp9CRFRange = 0 ... 63
    public static let pngCompressionLevelRange = 0 ... 9
    public static let encoderThreadsRange = 1 ... 256
    /// The largest width or height.
    public static let maximumSide = 16384

    /// The presets x264 knows, fastest first.
    public static let x264Presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast",
        "medium", "slow", "slower", "veryslow", "placebo",
    ]

    /// True when the background is not opaque: outputs that carry alpha do.
    public var isTransparent: Bool { background.alpha < 1 }

    /// `framesPerSecond` as an exact rational; nil when it is not a positive
    /// finite rate up to 1000 fps.
    public var frameRate: FrameRate? { FrameRate(framesPerSecond: framesPerSecond) }

    /// "391x844", as messages print a size.
    var sizeText: String { "\(width)x\(height)" }

    /// Threads to use, at least one.
    var resolvedThreads: Int { max(1, encoderThreads ?? ProcessorCount.online) }

    /// The background as premultiplied RGBA bytes, the form frames have.
    var premultipliedBackground: [UInt8] {
        let a = min(max(background.alpha, 0), 1)
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * a * 255).rounded()) }
        return [byte(background.red), byte(background.green), byte(background.blue), UInt8((a * 255).rounded())]
    }

    /// Checks what every output needs: a positive size and a valid frame rate.
    /// Returns the frame rate.
    func validateCommon(path: String) throws -> FrameRate {
        guard width > 0, height > 0 else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "frame size \(sizeText) must be positive in both directions")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "frame size \(sizeText) is larger than \(Self.maximumSide) pixels on a side")
        }
        guard let rate = frameRate else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "frame rate \(framesPerSecond) fps must be above 0 and at most 1000")
        }
        if let threads = encoderThreads, !Self.encoderThreadsRange.contains(threads) {
            throw EncoderError(
                .invalidSettings, path: path,
                reason: "encoder threads \(threads) is outside \(Self.encoderThreadsRange)")
        }
        try chunk?.validate(path: path)
        return rate
    }

    /// Checks CRF and preset for H.264.
    func validateH264(path: String) throws {
        guard Self.crfRange.contains(crf) else {
            throw EncoderError(.invalidSettings, path: path, reason: "CRF \(crf) is outside \(Self.crfRange)")
        }
        try validatePreset(path: path)
    }

    func validatePreset(path: String) throws {
        guard Self.x264Presets.contains(preset) else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason:
                    "unknown preset '\(preset)'; use one of \(Self.x264Presets.joined(separator: ", "))")
        }
    }

    func validateVP9(path: String) throws {
        guard Self.vp9CRFRange.contains(vp9CRF) else {
            throw EncoderError(.invalidSettings, path: path, reason: "VP9 CRF \(vp9CRF) is outside \(Self.vp9CRFRange)")
        }
        try validatePreset(path: path)
    }

    func validatePNG(path: String) throws {
        guard Self.pngCompressionLevelRange.contains(pngCompressionLevel) else {
            throw EncoderError(
                .invalidSettings, path: path,
                reason:
                    "PNG compression level \(pngCompressionLevel) is outside \(Self.pngCompressionLevelRange)")
        }
    }
}
