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
    /// H.264 (`.mp4`) constant rate factor, 0 (lossless) ... 51. Default 18:
    /// visually lossless for UI content (PSNR above 40 dB on our test frames).
    public var crf: Int
    /// x264 speed/size trade-off, one of `VideoSettings.x264Presets`. Also
    /// picks VP9's speed (`VP9Speed`). Default "medium".
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
    /// Default `.pad`. Other formats take any size.
    public var oddSize: OddSizePolicy
    /// zlib level of PNG sequences, 0 (store, fastest) ... 9 (smallest).
    /// Default 3: with the Paeth filter (CPNGShim), the 42-frame 1080p
    /// benchmark scene took 1.72 s and 14 MB at level 3 against 2.66 s and
    /// 11 MB at level 6 (ffmpeg -c:v png: 1.20 s, 13 MB), so 3 is the fastest
    /// level within 1.2x of ffmpeg's size. Use 1 for drafts, 9 for archives.
    public var pngCompressionLevel: Int
    /// Threads the encoders may use: PNG frames encoded in parallel, and
    /// FFmpeg's encoder threads. nil: one per online core.
    public var encoderThreads: Int?
    /// VP9 (`.webm`) constant quality, 0 (best) ... 63. Default 30.
    public var vp9CRF: Int
    /// GIF size, rate, dithering and looping.
    public var gif: GIFOptions
    /// The number the first frame of a PNG sequence is named with, so that
    /// ranges rendered apart (`--frames 100-199`) join into one sequence.
    public var firstFrameNumber: Int = 0

    public init(
        width: Int, height: Int, framesPerSecond: Double,
        crf: Int = 18, preset: String = "medium", overwrite: Bool = false,
        background: RGBAColor = .black, oddSize: OddSizePolicy = .pad,
        pngCompressionLevel: Int = 3, encoderThreads: Int? = nil,
        vp9CRF: Int = 30, gif: GIFOptions = GIFOptions()
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
            throw EncoderError(.invalidSettings, path: path,
                               reason: "frame size \(sizeText) must be positive in both directions")
        }
        guard width <= 16384, height <= 16384 else {
            throw EncoderError(.invalidSettings, path: path,
                               reason: "frame size \(sizeText) is larger than 16384 pixels on a side")
        }
        guard let rate = frameRate else {
            throw EncoderError(.invalidSettings, path: path,
                               reason: "frame rate \(framesPerSecond) fps must be above 0 and at most 1000")
        }
        if let threads = encoderThreads, !(1...256).contains(threads) {
            throw EncoderError(.invalidSettings, path: path, reason: "encoder threads \(threads) is outside 1...256")
        }
        return rate
    }

    /// Checks CRF and preset for H.264.
    func validateH264(path: String) throws {
        guard (0...51).contains(crf) else {
            throw EncoderError(.invalidSettings, path: path, reason: "CRF \(crf) is outside 0...51")
        }
        try validatePreset(path: path)
    }

    func validatePreset(path: String) throws {
        guard Self.x264Presets.contains(preset) else {
            throw EncoderError(.invalidSettings, path: path, reason:
                "unknown preset '\(preset)'; use one of \(Self.x264Presets.joined(separator: ", "))")
        }
    }

    func validateVP9(path: String) throws {
        guard (0...63).contains(vp9CRF) else {
            throw EncoderError(.invalidSettings, path: path, reason: "VP9 CRF \(vp9CRF) is outside 0...63")
        }
        try validatePreset(path: path)
    }

    func validatePNG(path: String) throws {
        guard (0...9).contains(pngCompressionLevel) else {
            throw EncoderError(.invalidSettings, path: path,
                               reason: "PNG compression level \(pngCompressionLevel) is outside 0...9")
        }
    }
}
