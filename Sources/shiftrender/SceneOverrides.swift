import ArgumentParser
import ShiftRender

/// Options that change the scene before it is planned, shared by the commands
/// that plan (render, plan, info). Numbers take the next argument whatever
/// it looks like, so a negative one is refused with its range.
struct SceneOverrides: ParsableArguments {
    @Option(parsing: .unconditional, help: "Frames per second (overrides the scene's fps).")
    var fps: Double?

    @Option(parsing: .unconditional, help: "Pixels per point (overrides canvas.scale), e.g. 3 for an @3x render.")
    var scale: Double?

    @Option(help: ArgumentHelp("Fit the output in WIDTHxHEIGHT pixels, keeping the scene's aspect ratio.", valueName: "WxH"))
    var size: String?

    @Option(
        help: ArgumentHelp(
            "present, dismiss or roundtrip (overrides transition.direction). The screens stay: from is still "
                + "the screen left. To play them the other way round, use --reverse."))
    var direction: TransitionDirection?

    @Flag(
        help: ArgumentHelp(
            "Play the screens the other way round (to -> from) with the direction flipped: a present scene's "
                + "dismissal. The holds swap; a roundtrip keeps its screens. After --direction."))
    var reverse = false

    func validate() throws {
        if let fps, !(fps >= SceneLimits.minimumFPS && fps <= SceneLimits.maximumFPS) {
            throw ValidationError(
                "--fps must be between \(Int(SceneLimits.minimumFPS)) and \(Int(SceneLimits.maximumFPS)) (got \(fps))")
        }
        if let scale, !(scale > 0 && scale <= SceneLimits.maximumScale) {
            throw ValidationError("--scale must be above 0 and at most \(Int(SceneLimits.maximumScale)) (got \(scale))")
        }
        if scale != nil && size != nil { throw ValidationError("--scale and --size both set the output size; give one") }
        if let size { _ = try Self.parseSize(size) }
    }

    static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let limit = SceneLimits.maximumCanvasPixels
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1 ... limit).contains(w), (1 ... limit).contains(h) else {
            throw ValidationError("--size must be WIDTHxHEIGHT in pixels, each 1...\(limit), e.g. 1080x2340")
        }
        return (w, h)
    }

    /// The scene with the overrides applied; a resulting canvas over the pixel limit is a usage error.
    func apply(to scene: Scene) throws -> Scene {
        var scene = scene
        if let fps { scene.fps = fps }
        if let direction { scene.transition.direction = direction }
        if let scale { scene.canvas.scale = scale }
        if let size, let (w, h) = try? Self.parseSize(size) {
            scene.canvas.scale = min(Double(w) / scene.canvas.width, Double(h) / scene.canvas.height)
        }
        // Without --scale or --size the scene's own canvas is the validator's to judge.
        guard scale != nil || size != nil else { return scene }
        let limit = SceneLimits.maximumCanvasPixels
        guard scene.canvas.pixelWidth <= limit, scene.canvas.pixelHeight <= limit,
            scene.canvas.pixelWidth >= 1, scene.canvas.pixelHeight >= 1
        else {
            printError("the output would be \(scene.canvas.pixelWidth)x\(scene.canvas.pixelHeight) px; each side must be 1...\(limit) px")
            throw ExitStatus.usage
        }
        return scene
    }
}

extension TransitionDirection: ExpressibleByArgument {}
