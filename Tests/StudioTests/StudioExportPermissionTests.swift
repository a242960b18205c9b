import Foundation
import Testing

/// Who may start an export over HTTP: only a request with the session token
/// the page carries, and with the studio's own Origin when it has one; and an
/// export never replaces a file the studio did not write without being told to.
@Suite struct StudioExportPermissionTests {
    /// A short scene, so the one accepted export ends quickly.
    static func scratch() throws -> ScratchScene {
        let scratch = try ScratchScene()
        try scratch.write(try scratch.edited(#""fps": 60"#, #""fps": 10"#))
        return scratch
    }

    @Test func onlyThePagesOriginWithTheSessionTokenStartsAnExport() async throws {
        let scratch = try Self.scratch()
        let studio = try await StartedStudio(scene: scratch.scenePath)
        defer { Task { await studio.stop() } }
        let token = try await studio.token()
        let own = "http://127.0.0.1:\(studio.port)"
        let refused: [(String, [(String, String)])] = [
            ("another site's page, no-cors", [("Origin", "http://evil.example")]),
            ("no Origin and no token (a form post from an old browser, curl)", []),
            ("another site's page with the token", [("Origin", "http://evil.example"), ("X-Studio-Token", token)]),
            ("an opaque origin with the token", [("Origin", "null"), ("X-Studio-Token", token)]),
            ("the studio's origin on another port", [("Origin", "http://127.0.0.1:\(studio.port + 1)"), ("X-Studio-Token", token)]),
            ("the studio's origin, a wrong token", [("Origin", own), ("X-Studio-Token", String(repeating: "0", count: 64))]),
            ("the studio's origin, no token", [("Origin", own)]),
        ]
        for (what, headers) in refused {
            let answer = try await RawHTTP.request("POST", "/export?format=gif", port: studio.port, headers: headers)
            #expect(answer.status == 403, "\(what)")
        }
        // Had any of them started, its file would be there by now or soon; none is.
        try await Task.sleep(for: .seconds(1))
        #expect(!FileManager.default.fileExists(atPath: scratch.folder + "/scenes/card.gif"))

        let events = try await EventReader(port: studio.port)
        _ = try await events.next(named: "reload")
        for headers in [[("Origin", own), ("X-Studio-Token", token)], [("X-Studio-Token", token)]] {
            let answer = try await RawHTTP.request("POST", "/export?format=gif", port: studio.port, headers: headers)
            #expect(answer.status == 202, "\(headers.map(\.0))")
            var end = try await events.next(named: "export", timeout: 120)
            while end.json["path"] == nil && end.json["error"] == nil { end = try await events.next(named: "export", timeout: 120) }
            #expect(end.json["error"] == nil, "\(end.data)")
        }
    }

    @Test func theTokenIsNewForEachStudio() async throws {
        let first = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await first.stop() } }
        let second = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await second.stop() } }
        #expect(try await first.token() != second.token())
    }

    @Test func anOutputTheStudioDidNotWriteIsReplacedOnlyWhenAsked() async throws {
        let scratch = try Self.scratch()
        let path = scratch.folder + "/scenes/card.gif"
        let users = Data("the user's own GIF".utf8)
        try users.write(to: URL(fileURLWithPath: path))
        let studio = try await StartedStudio(scene: scratch.scenePath)
        defer { Task { await studio.stop() } }
        let events = try await EventReader(port: studio.port)
        _ = try await events.next(named: "reload")

        let asked = try await studio.export("format=gif")
        #expect(asked.status == 409)
        #expect(asked.headers["content-type"] == "application/json")
        let answer = try JSONSerialization.jsonObject(with: Data(asked.body)) as? [String: Any]
        #expect(answer?["exists"] as? String == path, "\(asked.text)")
        #expect(FileManager.default.contents(atPath: path) == users)

        let replaced = try await studio.export("format=gif&replace=1")
        #expect(replaced.status == 202, "\(replaced.text)")
        var end = try await events.next(named: "export", timeout: 120)
        while end.json["path"] == nil && end.json["error"] == nil { end = try await events.next(named: "export", timeout: 120) }
        #expect(end.json["error"] == nil, "\(end.data)")
        #expect(FileManager.default.contents(atPath: path)?.prefix(4) == Data("GIF8".utf8))

        // The studio's own export is replaced without asking.
        #expect(try await studio.export("format=gif").status == 202)
        end = try await events.next(named: "export", timeout: 120)
        while end.json["path"] == nil && end.json["error"] == nil { end = try await events.next(named: "export", timeout: 120) }
        #expect(end.json["error"] == nil, "\(end.data)")
    }

    @Test func anInputOfTheSceneIsNeverReplacedEvenWhenAsked() async throws {
        let scratch = try Self.scratch()
        let image = scratch.folder + "/images/poster.png"
        let before = FileManager.default.contents(atPath: image)
        try FileManager.default.createSymbolicLink(atPath: scratch.folder + "/scenes/card.gif", withDestinationPath: "../images/poster.png")
        let studio = try await StartedStudio(scene: scratch.scenePath)
        defer { Task { await studio.stop() } }
        for query in ["format=gif", "format=gif&replace=1"] {
            let answer = try await studio.export(query)
            #expect(answer.status == 409, "\(query)")
            #expect(answer.text.contains("is one of the scene's inputs"), "\(query): \(answer.text)")
        }
        try await Task.sleep(for: .seconds(1))
        #expect(FileManager.default.contents(atPath: image) == before)
    }
}
