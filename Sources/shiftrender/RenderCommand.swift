import ArgumentParser
import Foundation
import OutputFiles
import ShiftRender

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
              shiftrender scene.json -o still.png --progress 0.4     the transition at 40%, as a finger holds it
              shiftrender scene.json --sheet sheet.png               a contact sheet of the transition
              shiftrender scene.json -o back.mp4 --reverse           the way back
              shiftrender drag.json -o drag.gif                      a finger drags, then lets go (interaction)

            from and to are Shift's Animator arguments, whatever the direction: the screen left and the screen \
            arrived at.
              A list presenting a detail: from list, to detail, present; and back: from detail, to list, dismiss.
            --direction changes the direction alone (from stays the screen left); --reverse plays the screens \
            the other way round with the direction flipped, so a present scene gives its dismissal.
            """
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(
        name: [.short, .customLong("output")],
        help:
            ArgumentHelp(
                "Output by extension: .mp4 (H.264), .mov (ProRes 4444, alpha), .webm (VP9, alpha when the background is "
                    + "transparent), .gif, a directory (ending in /) or a pattern (f_%04d.png) for PNGs, or a .png still with "
                    + "--at/--frame/--progress.")
    )
    var output: String?

    @OptionGroup var overrides: SceneOverrides
    @OptionGroup var selection: FrameSelection

    @Option(help: ArgumentHelp("Also write a contact sheet: a grid of frames with their times.", valueName: "sheet.png"))
    var sheet: String?

    @OptionGroup(title: "Rendering") var rendering: RenderingOptions

    @OptionGroup(title: "Encoding") var encoding: EncodingOptions

    @Flag(help: "No progress line and no warnings.")
    var quiet = false

    @Flag(help: "Warnings about the scene are errors: a scene with any is refused (exit 1) before any work.")
    var strict = false

    func validate() throws {
        if output == nil && sheet == nil { throw ValidationError("give an output with -o/--output (or a --sheet)") }
        if selection.isStill, let output, !output.lowercased().hasSuffix(".png") {
            throw ValidationError("\(selection.momentFlag) writes one still: the output must end in .png")
        }
        if let sheet, !sheet.lowercased().hasSuffix(".png") { throw ValidationError("--sheet must name a .png file") }
        if let output { try OutputPathCheck.check(output, option: "-o", detectFormat: !selection.isStill) }
        if let sheet { try OutputPathCheck.check(sheet, option: "--sheet", detectFormat: false) }
        if let output, let sheet { try OutputPathCheck.checkDistinct(output, option: "-o", sheet, option: "--sheet") }
    }

    func run() throws {
        let interruption = Interruption()
        // Declared before loading: the scene file itself must never become an output.
        InputFiles.declare(scene)
        let renderer = try makeRenderer(scene, overrides: overrides, options: rendering.options, quiet: quiet, strict: strict)
        do throws(RenderError) {
            if let output {
                if let moment = selection.moment {
                    try writePNG(try renderer.still(moment), to: output, interruption: interruption)
                } else {
                    try encode(renderer, to: output, interruption: interruption)
                }
            }
            if let sheet {
                let picture = try renderer.contactSheet(frames: selection.range, cancellation: interruption.cancellation)
                try writePNG(picture, to: sheet, interruption: interruption)
            }
        } catch {
            throw ExitStatus.report(flagged(error), interruption: interruption)
        }
        if let exit = interruption.report() { throw exit }
        // After the outputs, not before: four frames a motion that need not hold the render up (under --strict
        // they were looked for, and refused, before any work).
        if !quiet && !strict { printRestingJumps(renderer) }
        if let exit = interruption.report() { throw exit }
    }

    /// Names the option in a message about the frames asked for: the library
    /// says "frame 13 is past the end", the command line "--frame 13 is past the end".
    private func flagged(_ error: RenderError) -> RenderError {
        guard error.kind == .usage else { return error }
        var named = error
        for (word, flag) in [("frames ", "--frames "), ("frame ", "--frame "), ("time ", "--at "), ("progress ", "--progress ")]
        where error.message.hasPrefix(word) {
            named.message = flag + error.message.dropFirst(word.count)
            break
        }
        return named
    }

    private func writePNG(_ bitmap: Bitmap, to path: String, interruption: Interruption) throws(RenderError) {
        try Renderer.writePNG(bitmap, to: path, overwrite: encoding.overwrite, cancellation: interruption.cancellation)
    }

    private func encode(_ renderer: Renderer, to output: String, interruption: Interruption) throws(RenderError) {
        let settings = encoding.settings(for: renderer.videoSettings())
        let progressLine = ProgressLine(quiet: quiet)
        defer { progressLine.finish() }
        let warnings = try renderer.render(
            to: output, settings: settings, frames: selection.range,
            cancellation: interruption.cancellation
        ) { progress in
            progressLine.update(progress)
        }
        if !quiet { warnings.forEach(printWarning) }
    }
}
