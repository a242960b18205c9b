import ArgumentParser
import Compositor
import Encoders
import Foundation
import PNGCodec
import Primitives
import SceneFormat
import TransitionEngine

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a video, an image sequence or a still (the default command).",
        discussion: """
        Examples:
          shiftrender scene.json -o out.mp4 --scale 3            an @3x video
          shiftrender scene.json -o clip.gif                     a looping GIF for a README
          shiftrender scene.json -o edit.mov                     ProRes 4444 with alpha for an editor
          shiftrender scene.json -o frames/ --frames 0-29        the first 30 frames as PNGs
          shiftrender scene.json -o still.png --at 0.15          one frame, 0.15 s in
          shiftrender scene.json --sheet sheet.png               a contact sheet of the transition
          shiftrender scene.json -o back.mp4 --direction dismiss
        """
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: [.short, .customLong("output")],
            help: "Output by extension: .mp4 (H.264), .mov (ProRes 4444, alpha), .webm (VP9, alpha when the background is transparent), .gif, a directory (ending in /) or a pattern (f_%04d.png) for PNGs, or a .png still with --at/--frame.")
    var output: String?

    @OptionGroup var overrides: SceneOverrides
    @OptionGroup var selection: FrameSelection

    @Option(help: ArgumentHelp("Also write a contact sheet: a grid of frames with their times.", valueName: "sheet.png"))
    var sheet: String?

    @Option(help: "Threads the compositor uses (default: all cores).")
    var threads: Int?

    @OptionGroup(title: "Encoding") var encoding: EncodingOptions

    @Flag(help: "No progress line.")
    var quiet = false

    func validate() throws {
        if output == nil && sheet == nil { throw ValidationError("give an output with -o/--output (or a --sheet)") }
        if selection.isStill, let output, !output.lowercased().hasSuffix(".png") {
            throw ValidationError("--at and --frame write one still: the output must end in .png")
        }
        if let sheet, !sheet.lowercased().hasSuffix(".png") { throw ValidationError("--sheet must name a .png file") }
        if let threads, threads < 1 || threads > 256 { throw ValidationError("--threads must be between 1 and 256") }
    }

    func run() throws {
        let timeline = try loadTimeline(scene, overrides: overrides)
        let range: ClosedRange<Int>
        switch selection.indices(frameCount: timeline.frameCount, fps: timeline.canvas.framesPerSecond) {
        case .success(let r): range = r
        case .failure(let error):
            printError(error.description)
            throw ExitStatus.usage
        }
        let renderer = FrameRenderer(plan: timeline, threads: threads ?? ProcessorCount.online)
        let interruption = Interruption()
        if let output {
            if selection.isStill {
                try writeStill(renderer.render(frame: range.lowerBound), to: output)
            } else {
                try encode(range, renderer: renderer, timeline: timeline, to: output, interruption: interruption)
            }
        }
        if let sheet {
            let frames = ContactSheet.pick(range).map { (index: $0, bitmap: renderer.render(frame: $0)) }
            try writeStill(ContactSheet.render(frames: frames, fps: timeline.canvas.framesPerSecond,
                                               background: timeline.canvas.background), to: sheet)
        }
    }

    private func writeStill(_ bitmap: Bitmap, to path: String) throws {
        do {
            try PNGCodec.encode(bitmap, toFileAt: path)
        } catch {
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
    }

    private func encode(_ range: ClosedRange<Int>, renderer: FrameRenderer, timeline: TransitionTimeline,
                        to output: String, interruption: Interruption) throws {
        let settings = encoding.settings(for: timeline.canvas, firstFrameNumber: range.lowerBound)
        let encoder: any FrameEncoder
        do {
            encoder = try OutputFormat.encoder(forOutputPath: output, settings: settings)
        } catch {
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
        for warning in encoder.warnings { FileHandleStderr.write("shiftrender: warning: \(warning)\n") }
        let progress = ProgressLine(total: range.count, quiet: quiet)
        var frame = Bitmap(width: settings.width, height: settings.height)
        do {
            for (done, index) in range.enumerated() {
                if let signal = interruption.signal {
                    encoder.cancel()
                    progress.finish()
                    printError("interrupted (signal \(signal)); nothing was written")
                    throw ExitCode(128 + signal)
                }
                renderer.render(frame: index, into: &frame)
                // Hands the frame over and takes back a free buffer: compositing
                // the next frame overlaps encoding this one, with no copy.
                frame = try encoder.exchange(frame)
                progress.update(done: done + 1)
            }
            try encoder.finish()
            progress.finish()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            encoder.cancel()
            progress.finish()
            printError("\(error)")
            throw ExitStatus.inputOutput
        }
    }
}
