import Foundation
@testable import SceneFormat

/// Places in the repository the schema and bad-input tests read.
enum Repository {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static var schemaPath: String { path("schema/scene.schema.json") }

    static func files(in relative: String, withExtension ext: String? = nil) -> [String] {
        let dir = path(relative)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
        return names.filter { ext == nil || $0.hasSuffix("." + ext!) }.map { dir + "/" + $0 }
    }
}

/// A valid scene that uses every key the format has, each in every form it
/// takes (colours as hex and as arrays, scale as a number and a pair, bounds
/// as a size and a rect, defaultAnimation as an object ...). Images resolve
/// against fixtures/scenes.
let kitchenSinkScene = """
    {
      "$schema": "../../schema/scene.schema.json",
      "version": 1,
      "canvas": { "width": 120, "height": 80, "scale": 2, "background": [0, 0, 0, 0.5] },
      "fps": 30,
      "transition": { "direction": "roundtrip", "baselineDuration": 0.3, "viewOrder": "toViewsOnTop",
                      "defaultAnimation": { "scale": 1.3 }, "hold": { "before": 0.1, "after": 0.2 }, "roundtripPause": 0.25,
                      "duration": 0.4, "delay": 0.05, "curve": { "spring": { "duration": 0.5, "bounce": 0.2 } }, "cascade": true,
                      "arc": 0.5, "keyframes": { "opacity": [[0, 1], [1, 1]] } },
      "from": {
        "name": "from root", "frame": [0, 0, 120, 80], "backgroundColor": "#F2F2F7", "alpha": 1,
        "subviews": [
          { "name": "card", "frame": [10, 10, 50, 40], "backgroundColor": "#FFFFFFFF", "alpha": 0.9, "cornerRadius": 8,
            "masksToBounds": true, "borderWidth": 1, "borderColor": "#888",
            "shadow": { "color": "#000000", "opacity": 0.3, "radius": 4, "offset": [0, 2] },
            "transform": { "translate": [1, 2], "scale": 1.1, "rotate": 5, "rotateX": 10, "rotateY": -20, "translateZ": 5,
                           "perspective": 500 }, "anchorPoint": [0.5, 0.5], "zPosition": 1, "doubleSided": false,
            "blur": { "style": "systemThinMaterialDark", "radius": 30 },
            "isHidden": false, "image": "../images/star.png", "contentMode": "aspectFill",
            "gradient": { "type": "radial", "colors": ["#FF5F6D", [1, 0.76, 0.44, 0.5]], "locations": [0, 1],
                          "startPoint": [0.5, 0.5], "endPoint": [1, 1] },
            "shift": { "id": "card", "contentAnimation": "final", "contentSizing": "final", "superview": "parent",
                       "position": "front", "isHidden": false, "duration": 0.3, "delay": 0, "curve": "easeInOutCubic",
                       "cascade": { "delta": 0.03, "direction": "radial", "delayMatchedViews": true }, "arc": true,
                       "keyframes": {
                         "alpha": [[0, 1], [0.5, 0.2], [1, 1]], "cornerRadius": [[0, 20], [1, 0]], "borderWidth": [[0, 0], [1, 2]],
                         "borderColor": [[0, "#FF0000"], [1, [0, 0, 1, 1]]], "backgroundColor": [[0, "#F00"], [1, "#0000FF"]],
                         "shadowColor": [[0, "#000"]], "shadowOpacity": [[0, 0], [1, 0.5]], "shadowRadius": [[0, 2], [1, 8]],
                         "shadowOffset": [[0, [0, 2]], [1, [0, 8]]], "position": [[0, [35, 30]], [1, [60, 40]]],
                         "size": [[0, [50, 40]], [1, [120, 60]]], "translate": [[0, [0, 0]], [0.5, [0, -40]], [1, [0, 0]]],
                         "scale": [[0, 1], [0.5, [1.2, 0.8]], [1, 1]], "rotate": [[0, 0], [0.5, 10], [0.5, -10], [1, 0]],
                         "anchorPoint": [[0, [0.5, 0.5]], [1, [0, 0]]], "rotateX": [[0, 0], [1, 45]], "rotateY": [[0, -30], [1, 0]],
                         "translateZ": [[0, 0], [1, -50]], "perspective": [[0, 400], [1, 800]], "blurRadius": [[0, 0], [1, 30]] } } },
          { "name": "leaving", "frame": [70, 10, 40, 40], "backgroundColor": [1, 0, 0, 1],
            "transform": { "scale": [1, -1] },
            "shift": { "superview": "container", "position": "back", "curve": { "cubicBezier": [0.68, -0.55, 0.265, 1.55] },
                       "cascade": false, "arc": false, "animations": [
              "fade",
              { "fade": false },
              { "scale": 0.5, "when": "onDisappear" },
              { "move": { "up": 10, "down": 2, "left": 3, "right": 4 } },
              { "move": { "x": -5, "y": 6 } },
              { "bounds": [20, 20] },
              { "bounds": [0, 0, 10, 10], "when": "onAppear" },
              { "alpha": 0.5 }, { "opacity": 0.25 }, { "cornerRadius": 3 }, { "anchorPoint": [0, 1] }, { "zPosition": -2 },
              { "masksToBounds": true }, { "borderColor": "#00F" }, { "borderWidth": 2 }, { "shadowColor": [0, 0, 0, 1] },
              { "shadowOffset": [1, 1] }, { "shadowRadius": 6 }, { "shadowOpacity": 0.5 },
              { "transform": { "translate": [3, 3], "scale": [2, 2], "rotate": -45 } },
              { "transform": { "rotateY": 180, "perspective": 300 } },
              { "transform": { "matrix3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 10, 1] } },
              { "backgroundColor": "#FF00FF80" }, { "rotate": 90 }
            ] } },
          { "name": "title", "frame": [10, 55, 100, 20],
            "text": { "string": "Hello there", "font": { "family": "Inter", "size": 12, "weight": "semibold", "italic": true },
                      "color": "#333", "alignment": "center", "numberOfLines": 2, "lineBreakMode": "byTruncatingMiddle",
                      "lineHeightMultiple": 1.2, "letterSpacing": 0.5 },
            "shift": { "curve": { "spring": { "response": 0.4, "dampingFraction": 0.7 } } } }
        ]
      },
      "to": {
        "backgroundColor": "#FFFFFF",
        "subviews": [
          { "name": "card", "frame": [0, 0, 120, 60], "image": "../images/poster.png", "contentMode": "topLeft", "blur": {},
            "transform": { "matrix3D": [0.9, 0, 0.4, -0.001, 0, 1, 0, 0, -0.4, 0, 0.9, 0, 2, 3, 4, 1] },
            "shift": { "id": "card", "curve": { "spring": { "stiffness": 250, "damping": 30, "mass": 1, "initialVelocity": 0 } } },
            "subviews": [ { "frame": [5, 5, 10, 10], "backgroundColor": "#123", "isHidden": true,
                            "shift": { "curve": { "spring": { "dampingRatio": 0.8 } } } } ] },
          { "frame": [0, 62, 120, 16],
            "text": { "string": "Now", "font": { "file": "/usr/share/fonts/opentype/inter/Inter-Bold.otf", "size": 11 } } },
          { "frame": [0, 0, 60, 20], "text": { "string": "Headline", "font": "headline" } },
          { "frame": [60, 0, 60, 20], "text": "Plain" }
        ]
      }
    }
    """

/// The kitchen sink with one navigation or presentation added to its
/// transition each (a transition has one of them, in one form): between them
/// every key and form of `transition.navigation` and `transition.presentation`.
let navigationKitchenSinks: [String] = {
    let anchor = #""keyframes": { "opacity": [[0, 1], [1, 1]] }"#
    precondition(kitchenSinkScene.components(separatedBy: anchor).count == 2)
    let additions = [
        #"""
        "navigation": { "insertion": [{ "move": "trailing" }, { "offset": [10, -5] }, "opacity", { "rotate": 30 },
                                      { "rotate3D": { "angle": 45, "axis": [0, 1, 0], "perspective": 2 } }, { "scale": 0.5 },
                                      { "zPosition": 1 }, "bringToFront"],
                        "removal": { "move": "leading" }, "mirror": true }
        """#,
        #"""
        "navigation": { "push": { "insertion": "sendToBack", "removal": ["identity", { "rotate3D": { "angle": -30, "axis": [1, 0, 0] } }] },
                        "pop": { "insertion": { "move": "bottom" }, "removal": [] } }
        """#,
        #""navigation": { "slide": "vertical" }"#,
        #""navigation": { "fade": "cross" }"#,
        #""navigation": { "push": "left" }"#,
        #""navigation": { "zoomSlide": "up" }"#,
        #""navigation": { "pull": "right" }"#,
        #""navigation": { "cover": "down" }"#,
        #""navigation": { "uncover": "up" }"#,
        #""navigation": { "pageIn": "left" }"#,
        #""navigation": { "pageOut": "right" }"#,
        #""navigation": "zoomOut""#,
        #""navigation": { "flip": "left" }"#,
        #""navigation": { "cube": "up" }"#,
        #""navigation": "default""#,
        ##""presentation": { "style": "card", "dimming": { "color": "#101820", "opacity": 0.4 } }"##,
        #""presentation": { "style": "sheet", "dimming": true }"#,
    ]
    return additions.map { kitchenSinkScene.replacingOccurrences(of: anchor, with: anchor + ", " + $0) }
}()

/// The kitchen sink (a 120 x 80 canvas) with a finger driving its transition, one interaction each:
/// between them every key of `transition.interaction`, every axis and every form of `rule`. Every
/// gesture stays within 0...1 progress, so none of them warns.
let interactionKitchenSinks: [String] = {
    let anchor = #""keyframes": { "opacity": [[0, 1], [1, 1]] }"#
    let additions = [
        #"""
        "interaction": { "axis": "-x", "gesture": [[0, 0], [0.1, -30], [0.25, -70]], "releaseVelocity": -300,
                         "rule": { "threshold": 0.4, "velocity": 0.5 } }
        """#,
        #""interaction": { "axis": "x", "gesture": [[0, 0], [0.3, 20]], "releaseVelocity": 0, "rule": "easyTransitions" }"#,
        #""interaction": { "gesture": [[0, 0], [0.2, 30]], "rule": "navigationTransitions" }"#,
        #""interaction": { "axis": "y", "gesture": [[0.1, 10]], "rule": { "threshold": 0.5 } }"#,
        #""interaction": { "axis": "-y", "gesture": [[0, 0], [0.3, -20], [0.35, -22]], "rule": "liquid" }"#,
    ]
    return additions.map { kitchenSinkScene.replacingOccurrences(of: anchor, with: anchor + ", " + $0) }
}()

/// Reads and writes JSON values for the schema tests.
enum JSONText {
    static func parse(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8)).value }

    static func write(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): return quote(s)
        case .array(let elements): return "[" + elements.map { write($0.value) }.joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { quote($0.key) + ": " + write($0.value.value) }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func node(_ value: JSONValue) -> JSONNode { JSONNode(value: value, line: 1, column: 1) }

    /// One step into a JSON value: an object key or an array index.
    enum Step: Hashable { case key(String), index(Int) }

    /// Every place in a value (the root included), depth first.
    static func places(in value: JSONValue, at prefix: [Step] = []) -> [[Step]] {
        var found = [prefix]
        switch value {
        case .object(let members):
            for (key, node) in members { found += places(in: node.value, at: prefix + [.key(key)]) }
        case .array(let elements):
            for (i, node) in elements.enumerated() { found += places(in: node.value, at: prefix + [.index(i)]) }
        default:
            break
        }
        return found
    }

    static func value(in root: JSONValue, at place: [Step]) -> JSONValue? {
        var current = root
        for step in place {
            switch (step, current) {
            case (.key(let k), .object(let members)):
                guard let next = members.first(where: { $0.key == k }) else { return nil }
                current = next.value.value
            case (.index(let i), .array(let elements)):
                guard elements.indices.contains(i) else { return nil }
                current = elements[i].value
            default:
                return nil
            }
        }
        return current
    }

    /// `root` with the value at `place` replaced (nil removes it from its object or array).
    static func replacing(_ root: JSONValue, at place: [Step], with replacement: JSONValue?) -> JSONValue? {
        guard let step = place.first else { return replacement }
        let rest = Array(place.dropFirst())
        switch (step, root) {
        case (.key(let k), .object(let members)):
            guard let i = members.firstIndex(where: { $0.key == k }) else { return root }
            var copy = members
            if rest.isEmpty && replacement == nil {
                copy.remove(at: i)
            } else {
                guard let inner = replacing(members[i].value.value, at: rest, with: replacement) else { return root }
                copy[i] = (k, node(inner))
            }
            return .object(copy)
        case (.index(let i), .array(let elements)):
            guard elements.indices.contains(i) else { return root }
            var copy = elements
            if rest.isEmpty && replacement == nil {
                copy.remove(at: i)
            } else {
                guard let inner = replacing(elements[i].value, at: rest, with: replacement) else { return root }
                copy[i] = node(inner)
            }
            return .array(copy)
        default:
            return root
        }
    }

    /// `root` with a key added to the object at `place`.
    static func adding(_ key: String, _ value: JSONValue, to root: JSONValue, at place: [Step]) -> JSONValue {
        guard case .object(var members)? = self.value(in: root, at: place), !members.contains(where: { $0.key == key }) else { return root }
        members.append((key, node(value)))
        return replacing(root, at: place, with: .object(members)) ?? root
    }
}

/// Whether `a` is `b` or a place inside it (or the other way round), step by
/// step: `to.subviews[0]` and `to.subviews[0].frame` are related, `to.sub`
/// and `to.subviews` are not.
func pathsAreRelated(_ a: String, _ b: String) -> Bool {
    func isPrefix(_ p: String, of q: String) -> Bool {
        guard q.hasPrefix(p) else { return false }
        if p.isEmpty || p.count == q.count { return true }
        let next = q[q.index(q.startIndex, offsetBy: p.count)]
        return next == "." || next == "["
    }
    return isPrefix(a, of: b) || isPrefix(b, of: a)
}

/// A small deterministic random number generator (SplitMix64), so a failing
/// mutation can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
