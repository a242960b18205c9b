import ArgumentParser
import Encoders
import ShiftRender

/// The encoders' knobs, with the defaults stated in --help.
struct EncodingOptions: ParsableArguments {
    @Option(help: "H.264 quality (.mp4): constant rate factor 0 (lossless) to 51. Default 18: UI edges and gradients stay clean.")
    var crf: Int = 18

    @Option(help: "H.264 speed/size preset (also sets VP9's speed): ultrafast ... veryslow. Default medium.")
    var preset: String = "medium"

    @Option(name: .customLong("vp9-crf"), help: "VP9 quality (.webm), 0 (best) to 63. Default 30.")
    var vp9CRF: Int = 30

    @Option(name: .customLong("png-level"), help: "PNG compression level 0 (fastest) to 9 (smallest). Default 3: fast, and smaller than ffmpeg's PNGs.")
    var pngLevel: Int = 3

    @Option(name: .customLong("odd-size"), help: "For .mp4 (yuv420p needs even sides): pad (with the background) or refuse. Default pad.")
    var oddSize: OddSizePolicy = .pad

    @Option(name: .customLong("encoder-threads"), help: "Threads for encoding (PNG frames in parallel, codec threads). Default: all cores.")
    var encoderThreads: Int?

    @Option(name: .customLong("gif-width"), help: "Largest GIF width in pixels (scaled down to fit). Default 480.")
    var gifWidth: Int = 480

    @Option(name: .customLong("gif-fps"), help: "Highest GIF frame rate, 1 to 50 (frames are dropped evenly). Default 30.")
    var gifFPS: Int = 30

    @Option(name: .customLong("gif-dither"), help: "GIF dithering: bayer, sierra (error diffusion) or none. Default bayer.")
    var gifDither: String = "bayer"

    @Option(name: .customLong("gif-loop"), help: "GIF loops: 0 forever, -1 play once, N times. Default 0.")
    var gifLoop: Int = 0

    @Flag(name: [.customShort("y"), .long],
          help: "Replace outputs that are already there (as ffmpeg's -y): a file, or the frames a PNG sequence writes. Never a scene's input.")
    var overwrite = false

    func validate() throws {
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be between 0 and 51") }
        guard VideoSettings.x264Presets.contains(preset) else {
            throw ValidationError("--preset must be one of: \(VideoSettings.x264Presets.joined(separator: ", "))")
        }
        guard (0...63).contains(vp9CRF) else { throw ValidationError("--vp9-crf must be between 0 and 63") }
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be between 0 and 9") }
        if let encoderThreads, !(1...256).contains(encoderThreads) { throw ValidationError("--encoder-threads must be between 1 and 256") }
        guard (16...8192).contains(gifWidth) else { throw ValidationError("--gif-width must be between 16 and 8192") }
        guard (1...50).contains(gifFPS) else { throw ValidationError("--gif-fps must be between 1 and 50") }
        guard ["bayer", "sierra", "none"].contains(gifDither) else { throw ValidationError("--gif-dither must be bayer, sierra or none") }
        guard (-1 ... 65535).contains(gifLoop) else {
            throw ValidationError("--gif-loop must be -1 (play once), 0 (forever) or a count up to 65535 (GIF stores 16 bits)")
        }
    }

    /// `base` (the scene's size, rate and background) with these knobs.
    func settings(for base: VideoSettings) -> VideoSettings {
        let dither: GIFDither = gifDither == "none" ? .none : gifDither == "sierra" ? .errorDiffusion : .bayer(scale: 3)
        var settings = base
        settings.crf = crf
        settings.preset = preset
        settings.overwrite = overwrite
        settings.oddSize = oddSize
        settings.pngCompressionLevel = pngLevel
        settings.encoderThreads = encoderThreads
        settings.vp9CRF = vp9CRF
        settings.gif = GIFOptions(maxWidth: gifWidth, maxFramesPerSecond: gifFPS, dither: dither, loopCount: gifLoop)
        return settings
    }
}

extension OddSizePolicy: ExpressibleByArgument {}
