// swift-format-ignore-file
// (Its snippets are quoted word for word in README, docs and the DocC catalog: DocumentationSnippetTests.)

import GoldenImages
import ShiftRender
import Foundation
import Testing

/// README's Swift snippets, line for line, so that they compile with the
/// library as it is (`DocumentationSnippetTests` checks they are here). They
/// write into the working directory, so the tests run them from a scratch
/// one (`ReadmeSnippetTests`).
enum ReadmeSnippets {
    static func library() throws -> Bitmap {
        // Package.swift: .package(url: "<this repository>", branch: "main"), or .package(path: "../shiftrender")
        // target dependency: .product(name: "ShiftRender", package: "shiftrender")
        // (package: is the URL's last part, or the path's folder name: "main" for ../main; docs/swift-api.md)
        let scene = Scene(canvas: CanvasSpec(width: 390, height: 844, scale: 2),
            from: View {
                View(frame: Rect(x: 20, y: 140, width: 350, height: 130))
                    .backgroundColor(.white).cornerRadius(16).shift(id: "card")
            }.backgroundColor(RGBAColor(rgb: 0xF2F2F7)),
            to: View {
                View(frame: Rect(x: 0, y: 0, width: 390, height: 520)).backgroundColor(RGBAColor(rgb: 0x1E7BF0)).shift(id: "card")
                View(frame: Rect(x: 24, y: 600, width: 342, height: 14))
                    .shift(superview: .container, animations: [.fade, .move(.up(80)), .scale(2, .onAppear)])
            })
            .baselineDuration(0.4)

        let renderer = try Renderer(scene: scene)                 // checks it: every problem, with its place
        let halfway = try renderer.still(.progress(0.5))          // a Bitmap; .frame(n), .time(s) too
        try renderer.render(to: "card.mp4") { print($0.framesDone, "of", $0.frameCount) }
        let json = try SceneJSON.encode(scene)                    // reads back equal with SceneJSON.decode
        #expect(try SceneJSON.decode(bytes: json, directory: nil).scene == scene)
        return halfway
    }

    static func goldens() throws -> SceneGoldens.Report {
        // target dependency: .product(name: "GoldenImages", package: "shiftrender")
        let renderer = try Renderer(fileAt: "Scenes/card.json")
        let report = try SceneGoldens(renderer: renderer, goldenDirectory: "Tests/Goldens/card",
                                      failureDirectory: "/tmp/golden-failures").verify()
        #expect(report.passed, "\(report.messages)")
        return report
    }
}

/// Runs README's snippets where they expect to be: a folder with `Scenes/card.json`
/// (the bundled example) and its approved goldens.
@Suite(.serialized) struct ReadmeSnippetTests {
    @Test("README's snippets run as written")
    func snippets() throws {
        let scratch = try TemporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: scratch.path + "/Scenes", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Repository.path("fixtures/scenes/example-card.json"), toPath: scratch.path + "/Scenes/card.json")
        try fm.copyItem(atPath: Repository.path("fixtures/images"), toPath: scratch.path + "/images")
        let previous = fm.currentDirectoryPath
        #expect(fm.changeCurrentDirectoryPath(scratch.path))
        defer { _ = fm.changeCurrentDirectoryPath(previous) }
        let recorded = try SceneGoldens(renderer: try Renderer(fileAt: "Scenes/card.json"), goldenDirectory: "Tests/Goldens/card",
                                        failureDirectory: "failures", record: true).verify()
        #expect(recorded.results.count == 3 && recorded.results.allSatisfy { $0.result.recorded })

        let halfway = try ReadmeSnippets.library()
        #expect(halfway.width == 780 && halfway.height == 1688)
        #expect(fm.fileExists(atPath: "card.mp4"))
        let report = try ReadmeSnippets.goldens()
        #expect(report.passed && report.results.count == 3)
    }
}
