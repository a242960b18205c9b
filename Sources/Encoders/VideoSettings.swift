/// What every encoder is made with: the frame size all frames share, the
/// rate they play at and the knobs of the video codec.
public struct VideoSettings: Sendable, Hashable {
    /// Frame size in pixels. Every appended frame must have exactly this size.
    public var width: Int
    public var height: Int
    /// Playback rate; converted to an exact rational by `frameRate`
    /// (30 -> 30/1, 29.97 -> 30000/1001).
    public var framesPerSecond: Double
    /// x264 constant rate factor, 0 (lossless) ... 51; 18 is visually lossless
    /// for UI content.
    public var crf: Int
    /// x264 speed/size trade-off, one of `VideoSettings.x264Presets`.
    public var preset: String
    /// Allows a PNG sequence to replace a directory that already holds an
    /// earlier sequence (`frame_*.png` files only). A video file at the target
    /// is always replaced, and only when the new one is complete.
    public var overwrite: Bool

    public init(
        width: Int, height: Int, framesPerSecond: Double,
        crf: Int = 18, preset: String = "medium", overwrite: Bool = false
    ) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.crf = crf
        self.preset = preset
        self.overwrite = overwrite
    }

    /// The presets x264 knows, fastest first.
    public static let x264Presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast",
        "medium", "slow", "slower", "veryslow", "placebo",
    ]

    /// `framesPerSecond` as an exact rational; nil when it is not a positive
    /// finite rate up to 1000 fps.
    public var frameRate: FrameRate? { FrameRate(framesPerSecond: framesPerSecond) }

    /// "391x844", as messages print a size.
    var sizeText: String { "\(width)x\(height)" }

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
        return rate
    }

    /// Checks what H.264 in yuv420p needs on top: even sides, a known CRF and preset.
    func validateH264(path: String) throws -> FrameRate {
        let rate = try validateCommon(path: path)
        guard width % 2 == 0, height % 2 == 0 else {
            let even = "\(width + width % 2)x\(height + height % 2)"
            throw EncoderError(.invalidSettings, path: path, reason:
                "H.264 yuv420p needs even width and height; \(sizeText) is odd: "
                + "change the canvas size or scale (e.g. to \(even)), or write a PNG sequence")
        }
        guard (0...51).contains(crf) else {
            throw EncoderError(.invalidSettings, path: path, reason: "CRF \(crf) is outside 0...51")
        }
        guard Self.x264Presets.contains(preset) else {
            throw EncoderError(.invalidSettings, path: path, reason:
                "unknown x264 preset '\(preset)'; use one of \(Self.x264Presets.joined(separator: ", "))")
        }
        return rate
    }
}
