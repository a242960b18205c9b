import ShiftRender

/// What the tests in this target check: the problems `shiftrender validate`
/// reports for JSON text (the file's own, the model's rules and the images'),
/// or the scene when there are none.
struct LoadError: Error, CustomStringConvertible {
    enum Kind { case unreadable, syntax, invalid }
    var kind: Kind
    var issues: [SceneProblem]
    var description: String
}

func loadScene(bytes: [UInt8], file: String = "scene", baseDirectory: String) throws(LoadError) -> Scene {
    let document: SceneDocument
    do {
        document = try SceneJSON.decode(bytes: bytes, file: file, directory: baseDirectory)
    } catch {
        throw LoadError(kind: error.kind == .syntax ? .syntax : .unreadable, issues: error.problems, description: error.description)
    }
    let diagnostics = SceneDiagnostics(validating: document.scene, document: document)
    guard !diagnostics.hasErrors else { throw LoadError(kind: .invalid, issues: diagnostics.errors, description: diagnostics.description) }
    return document.scene
}

func loadScene(fileAt path: String) throws(LoadError) -> Scene {
    let diagnostics = SceneDiagnostics(validatingFileAt: path)
    guard !diagnostics.hasErrors else { throw LoadError(kind: .invalid, issues: diagnostics.errors, description: diagnostics.description) }
    do {
        return try SceneJSON.read(fileAt: path).scene
    } catch {
        throw LoadError(kind: .unreadable, issues: error.problems, description: error.description)
    }
}

extension SceneProblem {
    /// The place as messages print it.
    var path: String { placeText }
    /// The place as a JSON schema validator names it: keys and indices, without the names of the views along it.
    var schemaPath: String { ScenePlace(place.components).description }
    var line: Int? { location?.line }
    var column: Int? { location?.column }
}
