import Foundation

/// The studio page in a headless Chromium, read through the element ids the
/// page promises (index.html): frame, scrubber, frame-number, frame-time,
/// play, error-panel, timeline, progress-slider.
final class StudioPage {
    /// What the frame shows: the img's URL, whether it has loaded, its size,
    /// the frame readout and a checksum of its pixels (nil until loaded).
    struct Frame: CustomStringConvertible {
        var src: String
        var loaded: Bool
        var naturalWidth: Int
        var number: String
        var checksum: Int?
        var description: String { "src \(src), loaded \(loaded), naturalWidth \(naturalWidth), frame \(number)" }
    }

    let browser: WebDriverClient

    private init(browser: WebDriverClient) { self.browser = browser }

    /// Opens `url` in a 1280x900 viewport and waits for the first frame to load.
    static func open(_ url: String, with installation: BrowserInstallation) async throws -> StudioPage {
        let page = StudioPage(browser: try await WebDriverClient.start(browser: installation))
        do {
            try await page.browser.setViewport(width: 1280, height: 900)
            try await page.browser.navigate(to: url)
            _ = try await page.waitForFrame("the first frame") { $0.loaded && $0.naturalWidth > 0 }
        } catch {
            await page.close()
            throw error
        }
        return page
    }

    func close() async { await browser.quit() }

    /// The frame as the page shows it. The checksum reads the pixels back
    /// through a canvas (same origin, so allowed): a changed URL alone would
    /// not prove a different picture arrived.
    func frame() async throws -> Frame {
        let script = """
            const img = document.getElementById("frame");
            const loaded = img.complete && img.naturalWidth > 0;
            let checksum = null;
            if (loaded) {
              const canvas = document.createElement("canvas");
              canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
              const context = canvas.getContext("2d");
              context.drawImage(img, 0, 0);
              const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
              checksum = 0;
              for (let i = 0; i < data.length; i += 4) checksum = (checksum * 31 + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) | 0;
            }
            return [img.getAttribute("src") || "", loaded, img.naturalWidth,
                    document.getElementById("frame-number").textContent, checksum];
            """
        guard let values = try await browser.execute(script) as? [Any], values.count == 5 else {
            throw WebDriverError("the frame script returned nothing usable")
        }
        return Frame(
            src: values[0] as? String ?? "", loaded: values[1] as? Bool ?? false, naturalWidth: values[2] as? Int ?? 0,
            number: values[3] as? String ?? "", checksum: values[4] as? Int)
    }

    /// Waits until the frame satisfies `condition` and returns it.
    @discardableResult
    func waitForFrame(_ what: String, timeout: Double = 120, until condition: @escaping (Frame) -> Bool) async throws -> Frame {
        var last: Frame?
        try await browser.wait(for: what, timeout: timeout, describe: { last.map(\.description) ?? "no frame read" }) {
            last = try await frame()
            return condition(last!)
        }
        return last!
    }

    /// Moves the scrubber as a drag does: a new value, then the input event.
    func scrub(to frame: Int) async throws {
        try await browser.execute(
            """
            const scrubber = document.getElementById("scrubber");
            scrubber.value = String(arguments[0]);
            scrubber.dispatchEvent(new Event("input", { bubbles: true }));
            """, [frame])
    }

    /// Whether the error panel shows, and its text.
    func errorPanel() async throws -> (visible: Bool, text: String) {
        let panel = try await browser.element(id: "error-panel")
        let hidden = try await browser.property("hidden", of: panel) as? Bool ?? true
        return (!hidden, try await browser.text(of: panel))
    }

    /// The frame index in the img's URL (/frame/N.png), nil for anything else.
    static func frameIndex(in src: String) -> Int? {
        guard let start = src.range(of: "/frame/"), let end = src.range(of: ".png", range: start.upperBound..<src.endIndex) else {
            return nil
        }
        return Int(src[start.upperBound..<end.lowerBound])
    }

    /// The scene version in the img's URL (`v=N`).
    static func version(in src: String) -> String? {
        URLComponents(string: src)?.queryItems?.first(where: { $0.name == "v" })?.value
    }
}
