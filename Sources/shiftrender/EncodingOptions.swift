import ArgumentParser
import ShiftRender

/// The encoders' knobs. Defaults and ranges are the encoders' own
/// (`VideoSettings.Defaults`, `GIFOptions.Defaults` and their ranges), read
/// here for --help and never restated: an option left out keeps the
/// encoder's default, so the two cannot drift. Number options take the next
/// argument whatever it looks like (`.unconditional`), so that a negative
/// value is a value: `--gif-loop -1` works and `--crf -5` is refused with the
/// range, not as a "missing value".
struct EncodingOptions: ParsableArguments {
    typealias Video = VideoSettings.Defaults
    typealias GIF = GIFOptions.Defaults

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "H.264 quality (.mp4): constant rate factor \(range(VideoSettings.crfRange)), 0 lossless. "
                + "Default \(Video.crf): UI edges and gradients stay clean."))
    var crf: Int?

    @Option(help: ArgumentHelp("H.264 speed/size preset (also sets VP9's speed): ultrafast ... veryslow. Default \(Video.preset)."))
    var preset: String?

    @Option(
        name: .customLong("vp9-crf"),
        parsing: .unconditional,
        help: ArgumentHelp("VP9 quality (.webm), \(range(VideoSettings.vp9CRFRange)), 0 best. Default \(Video.vp9CRF)."))
    var vp9CRF: Int?

    @Option(
        name: .customLong("png-level"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "PNG compression level \(range(VideoSettings.pngCompressionLevelRange)), "
                + "0 stores, 9 smallest. Default \(Video.pngCompressionLevel): fastest, and within 1.2x of ffmpeg's size."))
    var pngLevel: Int?

    @Option(
        name: .customLong("odd-size"),
        help: ArgumentHelp(
            "For .mp4 (yuv420p needs even sides): pad (with the background) or refuse. "
                + "Default \(Video.oddSize.rawValue)."))
    var oddSize: OddSizePolicy?

    @Option(
        name: .customLong("encoder-threads"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Threads for encoding (PNG frames in parallel, codec threads), "
                + "\(range(VideoSettings.encoderThreadsRange)). Default: all cores."))
    var encoderThreads: Int?

    @Option(
        name: .customLong("gif-width"), parsing: .unconditional,
        help: ArgumentHelp("Largest GIF width in pixels (scaled down to fit). Default \(GIF.maxWidth)."))
    var gifWidth: Int?

    @Option(
        name: .customLong("gif-fps"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Highest GIF frame rate, \(range(GIFOptions.maxFramesPerSecondRange)) "
                + "(frames are dropped evenly). Default \(GIF.maxFramesPerSecond)."))
    var gifFPS: Int?

    @Option(
        name: .customLong("gif-dither"),
        help: ArgumentHelp(
            "GIF dithering: \(GIFDither.allCases.map(\.description).joined(separator: ", ")) "
                + "(sierra: error diffusion). Default \(GIF.dither)."))
    var gifDither: GIFDither?

    @Option(
        name: .customLong("gif-loop"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "GIF loops: 0 forever, -1 play once, N times, up to "
                + "\(GIFOptions.loopCountRange.upperBound). Default \(GIF.loopCount)."))
    var gifLoop: Int?

    @Flag(
        name: [.customShort("y"), .long],
        help: ArgumentHelp(
            "Replace outputs that are already there (as ffmpeg's -y): a file, or the frames a PNG sequence writes. "
                + "Never an input of the scene."))
    var overwrite = false

    func validate() throws {
        try check(crf, in: VideoSettings.crfRange, "--crf")
        if let preset, !VideoSettings.x264Presets.contains(preset) {
            throw ValidationError("--preset must be one of: \(VideoSettings.x264Presets.joined(separator: ", "))")
        }
        try check(vp9CRF, in: VideoSettings.vp9CRFRange, "--vp9-crf")
        try check(pngLevel, in: VideoSettings.pngCompressionLevelRange, "--png-level")
        try check(encoderThreads, in: VideoSettings.encoderThreadsRange, "--encoder-threads")
        try check(gifWidth, in: 16 ... VideoSettings.maximumSide, "--gif-width")
        try check(gifFPS, in: GIFOptions.maxFramesPerSecondRange, "--gif-fps")
        if let gifLoop, !GIFOptions.loopCountRange.contains(gifLoop) {
            throw ValidationError(
                "--gif-loop must be -1 (play once), 0 (forever) or a count up to "
                    + "\(GIFOptions.loopCountRange.upperBound) (a GIF stores 16 bits; got \(gifLoop))")
        }
    }

    private func check(_ value: Int?, in range: ClosedRange<Int>, _ option: String) throws {
        if let value, !range.contains(value) {
            throw ValidationError("\(option) must be between \(range.lowerBound) and \(range.upperBound) (got \(value))")
        }
    }

    /// `base` (the scene's size, rate and background, every knob at its default) with the knobs given.
    func settings(for base: VideoSettings) -> VideoSettings {
        var settings = base
        if let crf { settings.crf = crf }
        if let preset { settings.preset = preset }
        settings.overwrite = overwrite
        if let oddSize { settings.oddSize = oddSize }
        if let pngLevel { settings.pngCompressionLevel = pngLevel }
        if let encoderThreads { settings.encoderThreads = encoderThreads }
        if let vp9CRF { settings.vp9CRF = vp9CRF }
        if let gifWidth { settings.gif.maxWidth = gifWidth }
        if let gifFPS { settings.gif.maxFramesPerSecond = gifFPS }
        if let gifDither { settings.gif.dither = gifDither }
        if let gifLoop { settings.gif.loopCount = gifLoop }
        return settings
    }
}

private func range(_ r: ClosedRange<Int>) -> String { "\(r.lowerBound) to \(r.upperBound)" }

extension OddSizePolicy: ExpressibleByArgument {}
extension GIFDither: ExpressibleByArgument {}
