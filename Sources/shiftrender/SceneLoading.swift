import ArgumentParser
import OutputFiles
import ShiftRender

/// Reads the scene file, applies the command-line overrides and makes the
/// renderer (the scene reversed with `--reverse`), printing every problem (exit 1 for an invalid scene, 3 for a
/// file that cannot be read) before any work. Warnings are printed unless `quiet`.
func makeRenderer(
    _ path: String, overrides: SceneOverrides?, options: Renderer.Options = Renderer.Options(),
    quiet: Bool = false
) throws -> Renderer {
    let document: SceneDocument
    do {
        document = try SceneJSON.read(fileAt: path)
    } catch {
        ExitStatus.printProblems(SceneDiagnostics(file: error.file, problems: error.problems))
        throw error.kind == .unreadable ? ExitStatus.inputOutput : ExitStatus.invalidScene
    }
    let scene = try overrides?.apply(to: document.scene) ?? document.scene
    do {
        let renderer = try Renderer(scene: scene, document: document, options: options, reversed: overrides?.reverse ?? false)
        if !quiet { ExitStatus.printProblems(renderer.diagnostics) }
        // This process renders one scene: none of its outputs may write over its inputs.
        for input in renderer.inputFiles { InputFiles.declare(input) }
        return renderer
    } catch {
        throw ExitStatus.report(error)
    }
}
