/// SceneFormat: scene files, the JSON spelling of a `SceneModel.Scene`.
///
/// `SceneJSON.read(fileAt:)` parses strictly (`JSONReader`: RFC 8259, with
/// the line and column of every value) and decodes (`SceneDecoder`) into the
/// model, reporting what only a file can get wrong: syntax, unknown keys with
/// the closest known key, wrong types and names. The rules for values are the
/// model's (`SceneValidator`), written once for files and Swift code alike;
/// `SourceLocations` gives their problems a line and column in the file.
/// `SceneJSON.encode` writes a scene back; what it writes reads back equal.
///
/// The keys are listed once (`SceneKeys`); a test keeps them in step with
/// schema/scene.schema.json both ways. Nothing here touches images or decides
/// how a transition plays.
public enum SceneFormat {}
