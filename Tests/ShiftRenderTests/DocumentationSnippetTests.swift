import Foundation
import Testing

/// Every Swift snippet in the DocC catalog (Sources/ShiftRender/ShiftRender.docc),
/// docs/swift-api.md and README.md is code that compiles: each appears,
/// line for line (indentation aside), in TutorialTests.swift or in the
/// example executable's sources, and the modules it imports are imported there. A snippet edited in the
/// article alone, or code changed without its snippet, fails here.
@Suite struct DocumentationSnippetTests {
    static let catalog = RepositoryFiles.path("Sources/ShiftRender/ShiftRender.docc")
    static let compiledSources = [
        "Tests/ShiftRenderTests/TutorialTests.swift",
        "Tests/ShiftRenderTests/ReadmeSnippets.swift",
        "Examples/SceneInSwift/ExampleCard.swift",
        "Examples/SceneInSwift/main.swift",
    ]

    /// The code blocks marked `swift` in a Markdown text.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Lines without their indentation, blank lines left out.
    static func significantLines(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func everySwiftSnippetIsCompiledCode() throws {
        let sources = try Self.compiledSources.map { relative in
            Self.significantLines(
                try String(contentsOfFile: RepositoryFiles.path(relative), encoding: .utf8)
                    .components(separatedBy: "\n"))
        }
        let catalogPages = try FileManager.default.contentsOfDirectory(atPath: Self.catalog).filter { $0.hasSuffix(".md") }
        let articles =
            catalogPages.sorted().map { Self.catalog + "/" + $0 } + [
                RepositoryFiles.path("docs/swift-api.md"), RepositoryFiles.path("README.md"),
            ]
        var snippetCount = 0
        for article in articles {
            let text = try String(contentsOfFile: article, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                snippetCount += 1
                let lines = Self.significantLines(block)
                let imports = lines.filter { $0.hasPrefix("import ") }
                let code = lines.filter { !$0.hasPrefix("import ") }
                let home = sources.firstIndex { source in
                    imports.allSatisfy(source.contains) && (code.isEmpty || Self.contains(source, run: code))
                }
                #expect(home != nil, "\(article): this snippet is not in \(Self.compiledSources):\n\(block.joined(separator: "\n"))")
            }
        }
        #expect(snippetCount >= 10, "the catalog's snippets were not found")
    }

    static func contains(_ lines: [String], run: [String]) -> Bool {
        guard run.count <= lines.count else { return false }
        return (0 ... lines.count - run.count).contains { start in Array(lines[start ..< start + run.count]) == run }
    }
}
