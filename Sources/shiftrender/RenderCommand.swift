import ArgumentParser
import Compositor
import Encoders
import Primitives
import SceneFormat
import TransitionEngine

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a video or an image sequence (the default command)."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: [.short, .customLong("output")],
            help: "Output: a .mp4 file (H.264), or a directory (ending in /) for one PNG per frame.")
    var output: String

    @Option(help: "Threads the compositor uses (default: all cores).")
    var threads: Int?

    @Option(help: "H.264 quality: constant rate factor 0 (lossless) to 51. 18 keeps UI edges and gradients clean.")
    var crf: Int = 18

    @Option(help: "H.264 speed/size preset, ultrafast ... veryslow.")
    var preset: String = "medium"

    @Flag(help: "Replace a PNG directory that already holds frames.")
    var overwrite = false

    func validate() throws {
        if let threads, threads < 1 || threads > 256 {
            throw ValidationError("--threads must be between 1 and 256")
        }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be between 0 and 51") }
        guard VideoSettings.x264Presets.contains(preset) else {
            throw ValidationError("--preset must be one of: \(VideoSettings.x264Presets.joined(separator: ", "))")
        }
    }

    func run() throws {
        let scene = try loadScene(self.scene)
        let interruption = Interruption()
        let timeline = TransitionTimeline(scene: scene)
        let renderer = FrameRenderer(plan: timeline, threads: threads ?? ProcessorCount.online)
        let settings = VideoSettings(width: timeline.canvas.pixelWidth, height: timeline.canvas.pixelHeight,
                                     framesPerSecond: timeline.canvas.framesPerSecond,
                                     crf: crf, preset: preset, overwrite: overwrite)
        let encoder: any FrameEncoder
        do {
            encoder = try OutputFormat.encoder(forOutputPath: output, settings: settings)
        } catch {
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
        var frame = Bitmap(width: settings.width, height: settings.height)
        do {
            for index in 0..<timeline.frameCount {
                if let signal = interruption.signal {
                    encoder.cancel()
                    printError("interrupted (signal \(signal)); nothing was written")
                    throw ExitCode(128 + signal)
                }
                renderer.render(frame: index, into: &frame)
                try encoder.append(frame)
            }
            try encoder.finish()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            encoder.cancel()
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
    }
}
