import ArgumentParser
import OutputFiles
import ShiftRender

/// Reads the scene file, applies the command-line overrides and makes the
/// renderer (the scene reversed with `--reverse`), printing every problem
/// (exit 1 for an invalid scene, 3 for a file that cannot be read) before any
/// work. Warnings are printed unless `quiet`; with `strict` they are errors,
/// and a scene with any is refused. The warnings for the views where the
/// picture jumps at a motion's ends cost four frames a motion: they are
/// looked for here under `strict` and with `restingJumps` (validate); a
/// render prints them once its outputs are written (`printRestingJumps`).
func makeRenderer(
    _ path: String, overrides: SceneOverrides?, options: Renderer.Options = Renderer.Options(),
    quiet: Bool = false, strict: Bool = false, restingJumps: Bool = false
) throws -> Renderer {
    let document: SceneDocument
    do {
        document = try SceneJSON.read(fileAt: path)
    } catch {
        ExitStatus.printProblems(SceneDiagnostics(file: error.file, problems: error.problems))
        throw error.kind == .unreadable ? ExitStatus.inputOutput : ExitStatus.invalidScene
    }
    let scene = try overrides?.apply(to: document.scene) ?? document.scene
    let renderer: Renderer
    do {
        renderer = try Renderer(scene: scene, document: document, options: options, reversed: overrides?.reverse ?? false)
    } catch {
        throw ExitStatus.report(error)
    }
    var diagnostics = renderer.diagnostics
    if strict || (restingJumps && !quiet) { diagnostics.problems += renderer.restingJumps() }
    if strict, !diagnostics.warnings.isEmpty {
        let asErrors = diagnostics.problems.map { problem in
            var problem = problem
            problem.severity = .error
            return problem
        }
        ExitStatus.printProblems(SceneDiagnostics(file: diagnostics.file, problems: asErrors))
        throw ExitStatus.invalidScene
    }
    if !quiet { ExitStatus.printProblems(diagnostics) }
    // This process renders one scene: none of its outputs may write over its inputs.
    for input in renderer.inputFiles { InputFiles.declare(input) }
    return renderer
}

/// The warnings for the views where the picture jumps at a motion's ends (`Renderer.restingJumps`).
func printRestingJumps(_ renderer: Renderer) {
    ExitStatus.printProblems(SceneDiagnostics(file: renderer.diagnostics.file, problems: renderer.restingJumps()))
}
