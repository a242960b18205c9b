import Foundation
import Testing

/// The studio in a real browser: `shiftrender studio` in a process of its own on a copy of
/// a fixture scene, its page in headless Chromium driven over WebDriver.
/// Serialized: each test runs a browser, and two at once only slow both down.
@Suite(.serialized) struct StudioBrowserTests {
    /// Runs `body` against a studio on a fresh copy of `fixture`, then stops
    /// the browser and the server whatever happened.
    func withStudio(
        _ fixture: String = "fixtures/scenes/example-card.json", _ body: (StudioPage, SceneCopy) async throws -> Void
    ) async throws {
        // First, so a machine without the browser fails here with the install hint.
        let installation = try BrowserInstallation.locate()
        let scene = try SceneCopy(fixture: fixture)
        let studio = try await startStudio(scenePath: scene.scenePath)
        do {
            let page = try await StudioPage.open(studio.url, with: installation)
            do { try await body(page, scene) } catch {
                await page.close()
                throw error
            }
            await page.close()
        } catch {
            await studio.stop()
            throw error
        }
        await studio.stop()
    }

    @Test func theFirstFrameLoadsWithItsReadouts() async throws {
        try await withStudio { page, _ in
            let frame = try await page.frame()
            #expect(StudioPage.frameIndex(in: frame.src) == 0)
            #expect(frame.naturalWidth == 390)
            #expect(frame.number == "0 / 33")
            let time = try await page.browser.text(of: try await page.browser.element(id: "frame-time"))
            #expect(time == "0.000 s")
            let scrubber = try await page.browser.element(id: "scrubber")
            #expect(try await page.browser.attribute("max", of: scrubber) == "33")
            // The example is not interactive: no progress slider.
            let slider = try await page.browser.element(id: "progress-slider")
            #expect(try await page.browser.execute("return arguments[0].offsetParent === null", [slider.argument]) as? Bool == true)
        }
    }

    @Test func scrubbingShowsAnotherFrame() async throws {
        try await withStudio { page, _ in
            let first = try await page.frame()
            try await page.scrub(to: 17)
            let scrubbed = try await page.waitForFrame("frame 17 loaded") {
                StudioPage.frameIndex(in: $0.src) == 17 && $0.loaded
            }
            #expect(scrubbed.number == "17 / 33")
            #expect(scrubbed.naturalWidth == 390)
            #expect(scrubbed.checksum != nil && scrubbed.checksum != first.checksum, "frame 17 has the pixels of frame 0")
            let time = try await page.browser.text(of: try await page.browser.element(id: "frame-time"))
            #expect(time == String(format: "%.3f s", 17.0 / 60))
        }
    }

    @Test func arrowKeysStepOneFrameAndShiftStepsTen() async throws {
        try await withStudio { page, _ in
            let play = try await page.browser.element(id: "play")
            try await page.browser.sendKeys(WebDriverKey.arrowRight, to: play)
            try await page.waitForFrame("frame 1") { StudioPage.frameIndex(in: $0.src) == 1 && $0.number == "1 / 33" }
            try await page.browser.sendKeys(WebDriverKey.shift + WebDriverKey.arrowRight, to: play)
            try await page.waitForFrame("frame 11") { StudioPage.frameIndex(in: $0.src) == 11 }
            try await page.browser.sendKeys(WebDriverKey.arrowLeft, to: play)
            let back = try await page.waitForFrame("frame 10 loaded") { StudioPage.frameIndex(in: $0.src) == 10 && $0.loaded }
            #expect(back.number == "10 / 33")
        }
    }

    @Test func playAdvancesAndPauseStops() async throws {
        try await withStudio { page, _ in
            let play = try await page.browser.element(id: "play")
            try await page.browser.click(play)
            #expect(try await page.browser.attribute("aria-label", of: play) == "Pause")
            try await page.waitForFrame("playback to move on") { (StudioPage.frameIndex(in: $0.src) ?? 0) > 2 }
            try await page.browser.click(play)
            #expect(try await page.browser.attribute("aria-label", of: play) == "Play")
            let stopped = try await page.frame()
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(try await page.frame().src == stopped.src, "the frame moved after pause")
        }
    }

    @Test func roundtripFetchesItsOwnInfoAndFrames() async throws {
        try await withStudio { page, _ in
            try await page.browser.execute(#"document.querySelector("input[name=direction][value=roundtrip]").click()"#)
            let scrubber = try await page.browser.element(id: "scrubber")
            try await page.browser.wait(for: "the roundtrip's frame count") {
                try await page.browser.attribute("max", of: scrubber) != "33"
            }
            let expected = try await page.browser.execute(
                "return fetch('/info.json?direction=roundtrip').then((r) => r.json()).then((i) => i.frameCount - 1)")
            #expect(try await page.browser.property("max", of: scrubber) as? String == "\(expected as? Int ?? -1)")
            try await page.scrub(to: 60)
            let frame = try await page.waitForFrame("roundtrip frame 60") { StudioPage.frameIndex(in: $0.src) == 60 && $0.loaded }
            #expect(frame.src.contains("direction=roundtrip"))
            let heads = try await page.browser.execute("return document.querySelectorAll('#timeline .segment-head').length")
            #expect(heads as? Int == 2)
        }
    }

    @Test func theTimelineHasABarPerTransientViewWithMatchedPairsMarked() async throws {
        try await withStudio { page, _ in
            let counts = try await page.browser.execute(
                """
                return fetch('/info.json').then((r) => r.json()).then((info) => {
                  const views = info.segments.flatMap((s) => s.views);
                  return [views.length, views.filter((v) => v.matchedWith).length,
                          document.querySelectorAll('#timeline .bar-view').length,
                          document.querySelectorAll('#timeline .bar-view.matched').length];
                });
                """) as? [Int]
            #expect(counts?.count == 4)
            if let counts, counts.count == 4 {
                #expect(counts[0] > 0)
                #expect(counts[2] == counts[0], "bars for views")
                #expect(counts[1] > 0 && counts[3] == counts[1], "matched bars for matched views")
            }
        }
    }

    @Test func savingTheSceneReloadsTheFrame() async throws {
        try await withStudio { page, scene in
            let before = try await page.frame()
            // The list screen's background, all over frame 0.
            try scene.write(try scene.edited(replacing: "\"#F2F2F7\"", with: "\"#FF3B30\""))
            let after = try await page.waitForFrame("the reloaded frame") {
                StudioPage.version(in: $0.src) != StudioPage.version(in: before.src) && $0.loaded
            }
            #expect(StudioPage.frameIndex(in: after.src) == 0)
            #expect(after.checksum != before.checksum, "the reloaded frame has the old pixels")
        }
    }

    @Test func aBrokenSceneShowsItsErrorAndAFixClearsIt() async throws {
        try await withStudio { page, scene in
            try await page.scrub(to: 5)
            let good = try await page.waitForFrame("frame 5") { StudioPage.frameIndex(in: $0.src) == 5 && $0.loaded }
            // "fps" is on line 4 of the example, its value at column 10.
            try scene.write(try scene.edited(replacing: "\"fps\": 60", with: "\"fpz\": 60"))
            // Until it names "fpz": a save in place may first be read empty (an error of its own).
            try await page.browser.wait(for: "the error panel", describe: { "\(try await page.errorPanel())" }) {
                let panel = try await page.errorPanel()
                return panel.visible && panel.text.contains("fpz")
            }
            let panel = try await page.errorPanel()
            #expect(panel.text.contains("fpz"), "the place: \(panel.text)")
            #expect(panel.text.contains("line 4, column 10"), "the line and column: \(panel.text)")
            // The last good frame stays.
            let kept = try await page.frame()
            #expect(kept.src == good.src && kept.loaded && kept.checksum == good.checksum)

            try scene.write(scene.original)
            try await page.browser.wait(for: "the error panel to go", describe: { "\(try await page.errorPanel())" }) {
                try await !page.errorPanel().visible
            }
            try await page.waitForFrame("frame 5 of the fixed scene") {
                StudioPage.version(in: $0.src) != StudioPage.version(in: good.src) && StudioPage.frameIndex(in: $0.src) == 5
                    && $0.loaded
            }
        }
    }

    @Test func anInteractiveSceneHasAProgressSlider() async throws {
        try await withStudio("fixtures/scenes/features/interactive-pop-finish.json") { page, _ in
            try await page.browser.execute(
                """
                const slider = document.getElementById("progress-slider");
                slider.value = "0.5";
                slider.dispatchEvent(new Event("input", { bubbles: true }));
                """)
            let frame = try await page.waitForFrame("the picture at progress 0.5") { $0.src.contains("/progress/0.50.png") && $0.loaded }
            #expect(frame.naturalWidth > 0)
            let slider = try await page.browser.element(id: "progress-slider")
            #expect(try await page.browser.execute("return arguments[0].offsetParent !== null", [slider.argument]) as? Bool == true)
        }
    }

    /// True pixel size shows one image pixel per device pixel; fit to window scales the 390x844 frame into the
    /// stage's content box, aspect kept, filling it one way.
    @Test func fitToWindowScalesTheFrameIntoTheStage() async throws {
        try await withStudio { page, _ in
            let browser = page.browser
            let measure = """
                const frame = document.getElementById("frame").getBoundingClientRect();
                const stage = document.getElementById("stage");
                const style = getComputedStyle(stage);
                return [frame.width, frame.height, window.devicePixelRatio,
                  stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                  stage.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)];
                """
            func sizes() async throws -> [Double] {
                (try await browser.execute(measure) as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
            }
            // The page opens fitted: the 390x844 frame fills the stage's height (or width) and keeps its shape.
            try #require(try await browser.property("checked", of: try await browser.element(id: "fit")) as? Bool == true)
            var fitted: [Double] = []
            try await browser.wait(for: "the frame to fit", describe: { "\(fitted)" }) {
                fitted = try await sizes()
                return fitted.count == 5 && (abs(fitted[0] - fitted[3]) < 1 || abs(fitted[1] - fitted[4]) < 1)
            }
            let (width, height, room) = (fitted[0], fitted[1], (width: fitted[3], height: fitted[4]))
            #expect(abs(width / height - 390.0 / 844.0) < 0.005, "\(fitted)")
            #expect(width <= room.width + 1 && height <= room.height + 1, "\(fitted)")

            // Unticked, one image pixel per device pixel.
            try await browser.click(try await browser.element(id: "fit"))
            var actual: [Double] = []
            try await browser.wait(for: "the frame at its own size", describe: { "\(actual)" }) {
                actual = try await sizes()
                return actual.count == 5 && abs(actual[0] - 390 / actual[2]) < 0.5 && abs(actual[1] - 844 / actual[2]) < 0.5
            }
        }
    }

    @Test func theMP4ButtonExportsBesideTheSceneWithAProgressBar() async throws {
        try await withStudio { page, scene in
            let browser = page.browser
            try await browser.click(try await browser.element(id: "export-mp4"))
            let status = try await browser.element(id: "export-status")
            try await browser.wait(for: "the export to end", timeout: 300, describe: { try await browser.text(of: status) }) {
                try await browser.text(of: status).hasPrefix("Wrote ")
            }
            let path = scene.folder + "/scenes/example-card.mp4"
            #expect(try await browser.text(of: status) == "Wrote \(path)")
            let bar = try await browser.element(id: "export-progress")
            #expect(try await browser.property("value", of: bar) as? Double == 34)
            #expect(try await browser.property("max", of: bar) as? Double == 34)
            #expect(try await browser.property("disabled", of: try await browser.element(id: "export-gif")) as? Bool == false)
            // An MP4: its first box is `ftyp`.
            let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 8) ?? Data()
            #expect(head.count == 8 && String(decoding: head[4...], as: UTF8.self) == "ftyp")
        }
    }

    /// The user's own MP4 where the export goes: the page asks, Cancel leaves it, OK replaces it.
    @Test func theExportAsksBeforeReplacingAFileTheStudioDidNotWrite() async throws {
        try await withStudio { page, scene in
            let browser = page.browser
            let path = scene.folder + "/scenes/example-card.mp4"
            let users = Data("the user's own video".utf8)
            try users.write(to: URL(fileURLWithPath: path))
            let status = try await browser.element(id: "export-status")

            try await browser.click(try await browser.element(id: "export-mp4"))
            var question = ""
            try await browser.wait(for: "the page to ask", describe: { question }) {
                question = (try? await browser.dialogText()) ?? ""
                return !question.isEmpty
            }
            #expect(question.contains(path) && question.contains("Replace it?"), "\(question)")
            try await browser.answerDialog(accept: false)
            try await browser.wait(for: "the refusal", describe: { try await browser.text(of: status) }) {
                try await browser.text(of: status) == "Not exported: \(path) is already there."
            }
            #expect(FileManager.default.contents(atPath: path) == users)

            try await browser.click(try await browser.element(id: "export-mp4"))
            try await browser.wait(for: "the page to ask again", describe: { "" }) { (try? await browser.dialogText()) != nil }
            try await browser.answerDialog(accept: true)
            try await browser.wait(for: "the export to end", timeout: 300, describe: { try await browser.text(of: status) }) {
                try await browser.text(of: status).hasPrefix("Wrote ")
            }
            let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 8) ?? Data()
            #expect(head.count == 8 && String(decoding: head[4...], as: UTF8.self) == "ftyp")
        }
    }

    /// The README's picture of the studio: the example part-way through, a matched
    /// view's bar highlighted. Written to docs/images/studio.png when
    /// SHIFTRENDER_UPDATE_SCREENSHOTS=1 (so ordinary runs leave the tree clean);
    /// always checked to be a PNG of the viewport.
    @Test func readmeScreenshot() async throws {
        try await withStudio { page, _ in
            try await page.scrub(to: 14)
            try await page.waitForFrame("frame 14") { StudioPage.frameIndex(in: $0.src) == 14 && $0.loaded }
            try await page.browser.execute(
                "document.querySelector('#timeline .bar-view.matched')?.dispatchEvent(new Event('mouseenter'))")
            try await Task.sleep(nanoseconds: 300_000_000)  // the outline fetch, when the server has one
            let png = try await page.browser.screenshot()
            let size = pngSize(png)
            #expect(size?.width == 1280 && size?.height == 900, "screenshot size \(String(describing: size))")
            if ProcessInfo.processInfo.environment["SHIFTRENDER_UPDATE_SCREENSHOTS"] == "1" {
                try png.write(to: URL(fileURLWithPath: Repository.path("docs/images/studio.png")))
            }
        }
    }
}
