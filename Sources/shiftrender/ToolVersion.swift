/// The version `shiftrender --version` prints: the one place it is written.
/// Semantic versioning (MAJOR.MINOR.PATCH); raise it with a release.
enum ToolVersion {
    static let current = "0.1.0"
}
