import Foundation
import ShiftRender
import Studio
import Testing

/// What the studio refuses: paths outside its own (plain or encoded dot
/// segments), requests for another host (DNS rebinding), the wrong method,
/// and a port that is taken.
@Suite struct StudioRefusalTests {
    static let traversals = [
        "/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E/%2E%2E/etc/passwd", "/frame/../../etc/passwd",
        "/studio.js/../../x", "/frame/%2e%2e/%2e%2e/Package.swift", "/frame/../studio.js", "/./studio.js",
        "/..%2fPackage.swift", "//etc/passwd", "/Package.swift", "/Resources/index.html", "/index.html/..",
        "/frame/0.png/..", "/%5c..%5cPackage.swift",
    ]

    @Test func pathTraversalIsNotFoundAndNeverAFile() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let script = try await studio.get("/studio.js").body
        for target in Self.traversals {
            let answer = try await studio.get(target)
            #expect(answer.status == 404, "\(target)")
            #expect(!answer.text.contains("swift-tools-version"), "\(target)")
            #expect(!answer.text.contains("root:"), "\(target)")
            #expect(answer.body != script, "\(target)")
            #expect(answer.body.prefix(4) != [0x89, 0x50, 0x4E, 0x47], "\(target) gave a PNG")
        }
    }

    @Test func anotherHostIsRefused() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        for host in ["evil.example:\(studio.port)", "evil.example", "127.0.0.1:\(studio.port + 1)", "127.0.0.1"] {
            let answer = try await studio.get("/info.json", host: host)
            #expect(answer.status == 421, "\(host)")
            #expect(answer.text.contains("this studio serves 127.0.0.1:\(studio.port)"), "\(host)")
            #expect(!answer.text.contains("frameCount"), "\(host)")
        }
        #expect(try await studio.get("/frame/0.png", host: nil).status == 421)
        #expect(try await studio.get("/info.json", host: "localhost:\(studio.port)").status == 200)
        #expect(try await studio.get("/info.json", host: "LOCALHOST:\(studio.port)").status == 200)
    }

    @Test func theWrongMethodIsRefused() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        for target in ["/frame/0.png", "/", "/info.json", "/events", "/studio.js"] {
            let answer = try await RawHTTP.request("POST", target, port: studio.port)
            #expect(answer.status == 405, "\(target)")
            #expect(answer.headers["allow"] == "GET", "\(target)")
        }
        #expect(try await RawHTTP.request("DELETE", "/frame/0.png", port: studio.port).status == 405)
        let export = try await studio.get("/export?format=png")
        #expect(export.status == 405)
        #expect(export.headers["allow"] == "POST")
        let zip = try await studio.export("format=zip")
        #expect(zip.status == 400)
        #expect(zip.text.contains("format must be mp4, gif or png"))
    }

    /// Two Host headers make the one checked against DNS rebinding ambiguous (RFC 9112 3.2: 400),
    /// whichever comes first and even when both name this studio.
    @Test func twoHostHeadersAreABadRequest() async throws {
        let studio = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await studio.stop() } }
        let own = "127.0.0.1:\(studio.port)"
        for hosts in [[own, "evil.example"], ["evil.example", own], [own, own]] {
            let answer = try await RawHTTP.request("GET", "/info.json", port: studio.port, host: nil, headers: hosts.map { ("Host", $0) })
            #expect(answer.status == 400, "\(hosts)")
            #expect(answer.text.contains("more than one Host header"), "\(hosts)")
        }
        #expect(try await studio.get("/info.json").status == 200)
    }

    @Test func aSecondStudioOnATakenPortSaysSo() async throws {
        let first = try await StartedStudio(scene: Repository.exampleScene)
        defer { Task { await first.stop() } }
        let second = try StudioServer(scenePath: Repository.exampleScene, port: first.port)
        await #expect(throws: StudioError.portTaken(host: "127.0.0.1", port: first.port)) { try await second.start() }
        let message = StudioError.portTaken(host: "127.0.0.1", port: first.port).message
        #expect(message.contains("port \(first.port) is taken"))
        // The first one still answers.
        #expect(try await first.get("/info.json").status == 200)
    }

    @Test func aMissingSceneOrABadHostIsAStartupError() throws {
        #expect(throws: StudioError.unreadableScene("cannot read '/nonexistent/scene.json': no such file")) {
            try StudioServer(scenePath: "/nonexistent/scene.json")
        }
        #expect(throws: StudioError.badHost("example.com")) {
            try StudioServer(scenePath: Repository.exampleScene, host: "example.com")
        }
    }
}
