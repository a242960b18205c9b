import Testing
@testable import SceneFormat
import SceneModel

/// UIKit's and Shift's own spellings get our spelling as the hint, however
/// many edits apart: people write scenes from code.
@Suite struct ForeignSpellingTests {
    /// The one problem a view with `extra` written into it gives, as "place: message".
    func problem(view extra: String = "", shift: String = "", canvas: String = "", direction: String = "present") -> String? {
        let text = """
            {"version": 1, "canvas": {"width": 100, "height": 200\(canvas)}, "transition": {"direction": "\(direction)"},
             "from": {}, "to": {"subviews": [{"frame": [1, 2, 3, 4]\(extra), "shift": {"id": "x"\(shift)}}]}}
            """
        do {
            _ = try loadScene(bytes: Array(text.utf8), file: "test.json", baseDirectory: "/scenes")
            return nil
        } catch {
            return error.issues.first.map { "\($0.path): \($0.message)" }
        }
    }

    @Test func uiKitKeysNameOurs() {
        let v = "to.subviews[0]"
        #expect(
            problem(view: ", \"clipsToBounds\": true")
                == "\(v).clipsToBounds: unknown key \"clipsToBounds\"; did you mean \"masksToBounds\"?")
        #expect(problem(view: ", \"hidden\": true") == "\(v).hidden: unknown key \"hidden\"; did you mean \"isHidden\"?")
        #expect(problem(view: ", \"layer.cornerRadius\": 4")?.hasSuffix("did you mean \"cornerRadius\"?") == true)
        #expect(problem(view: ", \"layer.masksToBounds\": true")?.hasSuffix("did you mean \"masksToBounds\"?") == true)
        #expect(problem(view: ", \"opacity\": 0.5")?.hasSuffix("did you mean \"alpha\"?") == true)
        #expect(problem(view: ", \"background\": \"#FFF\"")?.hasSuffix("did you mean \"backgroundColor\"?") == true)
        #expect(problem(view: ", \"shadowRadius\": 3")?.hasSuffix("did you mean \"shadow.radius\"?") == true)
        #expect(problem(view: ", \"shadow\": {\"shadowOpacity\": 1}")?.hasSuffix("did you mean \"opacity\"?") == true)
        #expect(problem(view: ", \"contentAnimation\": \"fade\"")?.hasSuffix("did you mean \"shift.contentAnimation\"?") == true)
        #expect(problem(view: ", \"heroID\": \"x\"")?.hasSuffix("did you mean \"shift.id\"?") == true)
        #expect(
            problem(canvas: ", \"backgroundColor\": \"#FFF\"")
                == "canvas.backgroundColor: unknown key \"backgroundColor\"; did you mean \"background\"?")
    }

    @Test func uiKitAndShiftValuesNameOurs() {
        let mode = { (value: String) in self.problem(view: ", \"contentMode\": \"\(value)\"") }
        #expect(
            mode("scaleAspectFill")
                == "to.subviews[0].contentMode: unknown value \"scaleAspectFill\"; expected one of: scaleToFill, aspectFit, "
                + "aspectFill, center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight (did you mean \"aspectFill\"?)")
        #expect(mode("scaleAspectFit")?.hasSuffix("(did you mean \"aspectFit\"?)") == true)
        #expect(mode("redraw")?.hasSuffix("(did you mean \"scaleToFill\"?)") == true)
        #expect(mode(".topLeft")?.hasSuffix("(did you mean \"topLeft\"?)") == true)
        #expect(mode("UIViewContentModeScaleAspectFill")?.hasSuffix("(did you mean \"aspectFill\"?)") == true)
        #expect(problem(shift: ", \"contentAnimation\": \"none\"")?.hasSuffix("(did you mean \"final\"?)") == true)
        #expect(problem(direction: "pop")?.hasSuffix("(did you mean \"dismiss\"?)") == true)
        // Our own spellings still decode, and an unrelated word gets no hint.
        #expect(problem(view: ", \"contentMode\": \"aspectFill\", \"masksToBounds\": true") == nil)
        #expect(problem(view: ", \"contentMode\": \"sideways\"")?.contains("did you mean") == false)
    }

    /// UIModalPresentationStyle's cases, in every form code writes them, name the style that looks like them.
    @Test func uiKitModalStylesNameOurs() {
        func style(_ value: String) -> String? {
            let text = """
                {"version": 1, "canvas": {"width": 10, "height": 10}, "transition": {"presentation": {"style": "\(value)"}},
                 "from": {}, "to": {}}
                """
            do {
                _ = try loadScene(bytes: Array(text.utf8), file: "test.json", baseDirectory: "/scenes")
                return nil
            } catch {
                return error.issues.first?.message
            }
        }
        let cases = [
            ("pageSheet", "sheet"), ("formSheet", "sheet"), ("automatic", "sheet"), ("UIModalPresentationStyle.pageSheet", "sheet"),
            ("UIModalPresentationFormSheet", "sheet"), (".fullScreen", "overFullScreen"), ("overCurrentContext", "overFullScreen"),
            ("currentContext", "overFullScreen"), ("UIModalPresentationOverFullScreen", "overFullScreen"),
        ]
        for (uiKit, ours) in cases {
            #expect(style(uiKit)?.hasSuffix("(did you mean \"\(ours)\"?)") == true, "\(uiKit)")
        }
        #expect(style("popover")?.contains("did you mean") == false)
        #expect(
            problem(view: ", \"navigation\": \"slide\"")
                == "to.subviews[0].navigation: unknown key \"navigation\"; did you mean \"transition.navigation\"?")
    }
}
