import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the browser: a WebDriver error ("no such
/// element: ..."), a process that would not start, or a wait that ran out.
struct WebDriverError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A minimal W3C WebDriver client: it starts a chromedriver on a free port,
/// opens one headless Chromium session and speaks the protocol's JSON over
/// HTTP (`LoopbackHTTP`, which says why not URLSession). Only what the
/// studio's browser tests need; nothing here knows the studio.
final class WebDriverClient {
    /// An element reference, as the protocol hands it out.
    struct Element {
        let reference: String
        /// The element as an `execute` argument (the page's script sees the DOM node).
        var argument: [String: String] { [WebDriverClient.elementKey: reference] }
    }

    private let driver: ChildProcess
    private let port: Int
    private let session: String
    fileprivate static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Starts `chromedriver` and a headless `chromium` session (1280x900 window).
    static func start(browser: BrowserInstallation) async throws -> WebDriverClient {
        let port = try freePort()
        let driver = try ChildProcess(browser.chromedriver, ["--port=\(port)", "--allowed-ips=127.0.0.1"])
        do {
            try await waitForDriver(port: port, process: driver)
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "goog:chromeOptions": [
                            "binary": browser.chromium,
                            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"],
                        ]
                    ]
                ]
            ]
            let created = try await request(port: port, "POST", "/session", capabilities)
            guard let session = (created as? [String: Any])?["sessionId"] as? String else {
                throw WebDriverError("chromedriver gave no session id: \(String(describing: created))")
            }
            return WebDriverClient(driver: driver, port: port, session: session)
        } catch {
            await driver.stop()
            throw error
        }
    }

    private init(driver: ChildProcess, port: Int, session: String) {
        self.driver = driver
        self.port = port
        self.session = session
    }

    // MARK: Commands

    func navigate(to url: String) async throws {
        _ = try await command("POST", "/url", ["url": url])
    }

    func element(id: String) async throws -> Element {
        let found = try await command("POST", "/element", ["using": "css selector", "value": "#\(id)"])
        guard let reference = (found as? [String: Any])?[Self.elementKey] as? String else {
            throw WebDriverError("no element reference for #\(id): \(String(describing: found))")
        }
        return Element(reference: reference)
    }

    /// The attribute as written in the markup (nil when absent).
    func attribute(_ name: String, of element: Element) async throws -> String? {
        try await command("GET", "/element/\(element.reference)/attribute/\(name)") as? String
    }

    /// The live DOM property (`value`, `naturalWidth`, `complete`, ...).
    func property(_ name: String, of element: Element) async throws -> Any? {
        try await command("GET", "/element/\(element.reference)/property/\(name)")
    }

    /// The rendered text; empty for an element that is not displayed.
    func text(of element: Element) async throws -> String {
        try await command("GET", "/element/\(element.reference)/text") as? String ?? ""
    }

    func click(_ element: Element) async throws {
        _ = try await command("POST", "/element/\(element.reference)/click", [String: Any]())
    }

    /// Types `keys`; WebDriver's private-use characters are the special keys
    /// (`WebDriverKey`), and a modifier stays down to the end of the string.
    func sendKeys(_ keys: String, to element: Element) async throws {
        _ = try await command("POST", "/element/\(element.reference)/value", ["text": keys])
    }

    /// Runs `script` as a function body in the page; its return value comes back as JSON.
    @discardableResult
    func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// The viewport as a PNG.
    func screenshot() async throws -> Data {
        guard let encoded = try await command("GET", "/screenshot") as? String, let png = Data(base64Encoded: encoded) else {
            throw WebDriverError("the screenshot was not base64")
        }
        return png
    }

    /// Makes the page's viewport exactly `width` x `height` CSS pixels at scale 1.
    /// Headless Chromium's --window-size counts pretend window decorations
    /// (1280x900 gives a 1280x757 page), and resizing the window through
    /// WebDriver closed the headless browser here, so this uses chromedriver's
    /// Chrome DevTools passthrough (a chromedriver extension, not W3C).
    func setViewport(width: Int, height: Int) async throws {
        let metrics: [String: Any] = ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false]
        _ = try await command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride", "params": metrics])
    }

    /// Polls `condition` every 50 ms until it holds; after `timeout` seconds
    /// fails with `what` and the last thing `describe` reported. The timeout
    /// bounds a hang, it is no speed check: with every other suite running
    /// beside the browser (`swift test` in CI), a first page load once took
    /// over 15 s.
    func wait(
        for what: String, timeout: Double = 120, describe: () async throws -> String = { "" },
        until condition: () async throws -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw WebDriverError("waited \(timeout) s for \(what); last seen: \(try await describe())")
    }

    /// The text of the open `alert` or `confirm` dialog; throws when none is open.
    func dialogText() async throws -> String {
        try await command("GET", "/alert/text") as? String ?? ""
    }

    /// Answers the open dialog: OK (`accept`) or Cancel.
    func answerDialog(accept: Bool) async throws {
        _ = try await command("POST", accept ? "/alert/accept" : "/alert/dismiss", [:])
    }

    /// Ends the session (which closes Chromium) and the chromedriver.
    func quit() async {
        _ = try? await command("DELETE", "")
        await driver.stop()
    }

    // MARK: The wire

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        try await Self.request(port: port, method, "/session/\(session)\(path)", body)
    }

    /// One request; the protocol wraps every answer in {"value": ...} and
    /// every failure in {"value": {"error", "message"}} with a 4xx/5xx status.
    private static func request(port: Int, _ method: String, _ path: String, _ body: [String: Any]? = nil) async throws
        -> Any?
    {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try await LoopbackHTTP.exchange(port: port, method: method, path: path, body: payload)
        let json = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
        let value = (json as? [String: Any])?["value"]
        guard (200..<300).contains(response.status) else {
            let failure = value as? [String: Any]
            let error = failure?["error"] as? String ?? "HTTP \(response.status)"
            let message = failure?["message"] as? String ?? String(decoding: response.body, as: UTF8.self)
            throw WebDriverError("\(method) \(path): \(error): \(message)")
        }
        return value is NSNull ? nil : value
    }

    /// chromedriver answers /status with ready: true once it takes sessions.
    private static func waitForDriver(port: Int, process: ChildProcess) async throws {
        for _ in 0..<200 {
            guard process.isRunning else {
                throw WebDriverError("chromedriver exited at once")
            }
            if let status = try? await request(port: port, "GET", "/status") as? [String: Any],
                status["ready"] as? Bool == true
            {
                return
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw WebDriverError("chromedriver did not answer on port \(port) within 10 s")
    }

    /// A port nobody listens on: bind port 0 and ask which one the kernel chose.
    /// (Another process could take it before chromedriver does; on a test
    /// machine that race is too rare to design around.)
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WebDriverError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw WebDriverError("could not bind a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// WebDriver's codes for special keys in `sendKeys`.
enum WebDriverKey {
    static let shift = "\u{E008}"
    static let arrowLeft = "\u{E012}"
    static let arrowRight = "\u{E014}"
    static let space = "\u{E00D}"
}
