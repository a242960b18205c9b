import Foundation
import Testing
@testable import SceneFormat
import SceneModel

/// Everything the scene format can say can be said in Swift.
///
/// The kitchen sink (SwiftKitchenSink.swift) is built in Swift only; it is
/// written with `SceneJSON.encode`, and the spellings the written JSON uses
/// (SchemaSpellings.swift: every key path, JSON form and enum value, indices
/// folded) are compared with every spelling schema/scene.schema.json allows.
/// A key, form or enum value added to the schema makes this test fail, naming
/// it, until the Swift API can say it and the kitchen sink does.
///
/// Spellings the writer never produces are allowed only as an alias that is
/// checked here: the same JSON with the alias put in must decode to the same
/// scene, with no problems. The aliases are the schema's default enum values
/// (found in the schema, since the writer leaves defaults out) and the ones
/// listed in `writerNeverWrites`.
@Suite struct SwiftSpellingTests {
    let validator: JSONSchemaValidator
    let spellings: SchemaSpellings

    init() throws {
        validator = try JSONSchemaValidator(schemaFileAt: Repository.schemaPath)
        spellings = SchemaSpellings(validator: validator)
    }

    /// Spellings the model has no value for, with the JSON that says them.
    static let writerNeverWrites: [String: SchemaSpellings.DefaultValue] = [
        // Editor metadata: the decoder reads it and drops it, so a scene has no place for it.
        "scene.$schema: string": .init(parent: "scene", key: "$schema", value: .string("../../schema/scene.schema.json")),
        // The writer spells every cascade as an object; `false` is no cascade, as leaving the key out.
        "shift.cascade: boolean": .init(parent: "shift", key: "cascade", value: .bool(false)),
        "transition.cascade: boolean": .init(parent: "transition", key: "cascade", value: .bool(false)),
    ]

    /// Spellings the writer normalizes to another (the canonical one, which
    /// the kitchen sink writes): in a transition written with `canonical`,
    /// `alias` in its place must decode to the same scene, with no problems.
    static let writerNormalizes: [String: (parent: String, key: String, canonical: JSONValue, alias: JSONValue)] = [
        // seed 004's `.slide` is `.slide(axis: .horizontal)`; the writer says it the short way.
        "navigationBuiltIn.slide = horizontal": (
            "transition", "navigation", .string("slide"), .object([("slide", JSONText.node(.string("horizontal")))])
        )
    ]

    func checkNormalized(_ spelling: String, in written: Written) -> String? {
        guard let (parent, key, canonical, alias) = Self.writerNormalizes[spelling] else { return "not listed" }
        for document in written.documents {
            guard let steps = spellings.ofDocument(document).objects[parent]?.first,
                JSONText.value(in: document, at: steps + [.key(key)]) == canonical,
                let aliased = JSONText.replacing(document, at: steps + [.key(key)], with: alias)
            else { continue }
            do {
                let plain = try decode(document)
                let other = try decode(aliased)
                if !other.problems.isEmpty { return "decoding it reports \(other.problems)" }
                return plain.scene == other.scene ? nil : "it decodes to a different scene than \(JSONText.write(canonical))"
            } catch {
                return "it does not decode: \(error)"
            }
        }
        return "no \(parent) with \(key) = \(JSONText.write(canonical)) in the written kitchen sink to try it in"
    }

    struct Written {
        var documents: [JSONValue] = []
        var spellings = Set<String>()
        var objects: [String: [[JSONText.Step]]] = [:]
    }

    func writeKitchenSink() throws -> Written {
        var written = Written()
        for scene in SwiftKitchenSink.scenes {
            #expect(SceneValidator.problems(in: scene).isEmpty, "the kitchen sink must be a valid scene")
            let document = try JSONReader.parse(SceneJSON.encode(scene)).value
            let failures = validator.validate(document)
            #expect(failures.isEmpty, "the written kitchen sink breaks the schema: \(failures)")
            let found = spellings.ofDocument(document)
            written.documents.append(document)
            written.spellings.formUnion(found.spellings)
            written.objects.merge(found.objects) { $0 + $1 }
        }
        return written
    }

    @Test func everySchemaSpellingIsWrittenFromSwiftOrIsACheckedAlias() throws {
        let schema = spellings.ofSchema()
        let written = try writeKitchenSink()
        let aliases = schema.defaults.merging(Self.writerNeverWrites) { first, _ in first }
        var missing: [String] = []
        for spelling in schema.spellings.subtracting(written.spellings).sorted() {
            if Self.writerNormalizes[spelling] != nil {
                let verdict = checkNormalized(spelling, in: written)
                #expect(verdict == nil, "\(spelling): \(verdict ?? "")")
                continue
            }
            guard let alias = aliases[spelling] else {
                missing.append(spelling)
                continue
            }
            let verdict = checkAlias(alias, in: written)
            #expect(verdict == nil, "\(spelling): \(verdict ?? "")")
        }
        #expect(
            missing.isEmpty,
            """
            The scene format can say these, but the Swift-built kitchen sink never wrote them: give the \
            Swift API a spelling and use it in SwiftKitchenSink.swift.
            \(missing.joined(separator: "\n"))
            """)
        let unknown = written.spellings.subtracting(schema.spellings).sorted()
        #expect(unknown.isEmpty, "written but not in the schema:\n\(unknown.joined(separator: "\n"))")
    }

    /// Nil when a written object decodes to the same scene, with no
    /// problems, with `alias` put in as without the key at all (what the
    /// writer does for a default); otherwise why not.
    func checkAlias(_ alias: SchemaSpellings.DefaultValue, in written: Written) -> String? {
        for document in written.documents {
            guard let steps = spellings.ofDocument(document).objects[alias.parent]?.first,
                let without = JSONText.replacing(document, at: steps + [.key(alias.key)], with: nil)
            else { continue }
            let with = JSONText.adding(alias.key, alias.value, to: without, at: steps)
            do {
                let plain = try decode(without)
                let aliased = try decode(with)
                if !aliased.problems.isEmpty { return "decoding it reports \(aliased.problems)" }
                return plain.scene == aliased.scene ? nil : "it decodes to a different scene than leaving it out"
            } catch {
                return "it does not decode: \(error)"
            }
        }
        return "no \(alias.parent) object in the written kitchen sink to try it in"
    }

    func decode(_ document: JSONValue) throws -> SceneDocument {
        try SceneJSON.decode(bytes: Array(JSONText.write(document).utf8), directory: SwiftKitchenSink.directory)
    }

    /// The test above is only as good as the walk: a key or value added to
    /// the schema must come out as a missing spelling.
    @Test func aKeyOrValueAddedToTheSchemaComesOutMissing() throws {
        var schemaText = try String(contentsOfFile: Repository.schemaPath, encoding: .utf8)
        schemaText = schemaText.replacingOccurrences(of: "\"back\"", with: "\"back\", \"sideways\"")
        let viewProperties = "\"properties\": {\n        \"name\": {"
        #expect(schemaText.contains(viewProperties))
        schemaText = schemaText.replacingOccurrences(
            of: viewProperties, with: "\"properties\": {\n \"sparkle\": {\"type\": \"number\", \"description\": \"x\"},\n \"name\": {")
        let grown = SchemaSpellings(validator: try JSONSchemaValidator(schema: JSONText.parse(schemaText)))
        let written = try writeKitchenSink()
        let missing = grown.ofSchema().spellings.subtracting(written.spellings)
        #expect(missing.contains("view.sparkle: number"))
        #expect(missing.contains("shift.position = sideways"))
        #expect(!missing.contains("view.cornerRadius: number"))
    }

    /// A few spellings the writer normalizes, each decoding to the model
    /// value of the form the writer prefers.
    @Test func normalizedSpellingsDecodeToTheCanonicalModel() throws {
        let pairs: [(alternative: String, canonical: String)] = [
            (#"{"move": {"x": 0, "y": -10}}"#, #"{"move": {"down": 10}}"#),
            (#"{"move": {"up": 10, "right": 5}}"#, #"{"move": {"x": -5, "y": 10}}"#),
            (#"{"bounds": [0, 0, 20, 30]}"#, #"{"bounds": [20, 30]}"#),
            (#"{"fade": true}"#, #""fade""#),
            (##"{"backgroundColor": "#abc"}"##, ##"{"backgroundColor": "#AABBCC"}"##),
            (##"{"backgroundColor": [1, 0, 0, 1]}"##, ##"{"backgroundColor": "#FF0000"}"##),
            (#"{"transform": {"scale": [2, 2]}}"#, #"{"transform": {"scale": 2}}"#),
        ]
        for (alternative, canonical) in pairs {
            let a = try animations(alternative)
            let c = try animations(canonical)
            #expect(a == c && !a.isEmpty, "\(alternative) vs \(canonical)")
        }
        let scaleDown = try transition(#"{"defaultAnimation": {"scale": 1.7}}"#)
        #expect(scaleDown == (try transition(#"{"defaultAnimation": {"scale": "down"}}"#)))
        #expect(scaleDown.defaultAnimation == .scale(.down))
        let timings: [(alternative: String, canonical: String)] = [
            (#"{"arc": 1}"#, #"{"arc": true}"#),
            (#"{"arc": false, "cascade": false}"#, #"{}"#),
            (#"{"cascade": true}"#, #"{"cascade": {"delta": 0.02, "direction": "topToBottom", "delayMatchedViews": false}}"#),
            (#"{"cascade": {}}"#, #"{"cascade": {"delta": 0.02, "direction": "topToBottom", "delayMatchedViews": false}}"#),
            (#"{"curve": {"spring": {"response": 0.5}}}"#, #"{"curve": {"spring": {"response": 0.5, "dampingFraction": 0.825}}}"#),
            (
                #"{"curve": {"spring": {"damping": 10}}}"#,
                #"{"curve": {"spring": {"stiffness": 100, "damping": 10, "mass": 1, "initialVelocity": 0}}}"#
            ),
            (#"{"keyframes": {"scale": [[0, [2, 2]]]}}"#, #"{"keyframes": {"scale": [[0, 2]]}}"#),
            (##"{"keyframes": {"shadowColor": [[0, [1, 0, 0, 1]]]}}"##, ##"{"keyframes": {"shadowColor": [[0, "#FF0000"]]}}"##),
        ]
        for (alternative, canonical) in timings {
            let a = try transition(alternative)
            #expect(a == (try transition(canonical)), "\(alternative) vs \(canonical)")
            // The canonical form is what the writer writes.
            let written = String(
                decoding: try SceneJSON.encode(Scene(canvas: CanvasSpec(width: 10, height: 10), transition: a, from: View(), to: View())),
                as: UTF8.self)
            let body = canonical.dropFirst().dropLast()
            #expect(body.isEmpty ? !written.contains("transition") : written.contains(body), "\(written) lacks \(canonical)")
        }
    }

    /// Navigation and presentation spellings the writer normalizes, each read as the Swift spelling builds
    /// it and as the canonical form the writer writes.
    @Test func navigationSpellingsDecodeToTheSwiftModelAndTheCanonicalForm() throws {
        let small = Scene(canvas: CanvasSpec(width: 10, height: 10), from: View(), to: View())
        let cases: [(alternative: String, canonical: String, swift: Scene)] = [
            (#"{"navigation": {"slide": "horizontal"}}"#, #"{"navigation": "slide"}"#, small.navigation(.slide(.horizontal))),
            (
                #"{"navigation": {"insertion": ["opacity"]}}"#, #"{"navigation": {"insertion": "opacity"}}"#,
                small.navigation(insertion: [.opacity])
            ),
            (
                #"{"navigation": {"push": {"removal": {"move": "leading"}}}}"#, #"{"navigation": {"removal": {"move": "leading"}}}"#,
                small.navigation(removal: [.move(.leading)])
            ),
            (
                #"{"navigation": {"insertion": [], "removal": [], "mirror": false}}"#, #"{"navigation": {"mirror": false}}"#,
                small.navigation(insertion: [], removal: [])
            ),
            (
                #"{"navigation": {"insertion": {"rotate3D": {"angle": 90, "axis": [0, 1, 0], "perspective": 1}}}}"#,
                #"{"navigation": {"insertion": {"rotate3D": {"angle": 90, "axis": [0, 1, 0]}}}}"#,
                small.navigation(insertion: [.rotate3D(90, axis: .y)])
            ),
            (
                ##"{"presentation": {"style": "overFullScreen", "dimming": {"color": "#000", "opacity": 0.5}}}"##,
                #"{"presentation": {"dimming": true}}"#, small.presentation(dimming: DimmingSpec())
            ),
            (#"{"presentation": {"dimming": false}}"#, #"{"presentation": {}}"#, small.presentation(.overFullScreen)),
        ]
        for (alternative, canonical, swift) in cases {
            let a = try transition(alternative)
            #expect(a == swift.transition, "\(alternative)")
            #expect(a == (try transition(canonical)), "\(alternative) vs \(canonical)")
            let written = String(decoding: try SceneJSON.encode(swift), as: UTF8.self)
            #expect(written.contains(canonical.dropFirst().dropLast()), "\(written) lacks \(canonical)")
        }
    }

    func animations(_ entry: String) throws -> [AdditionalAnimation] {
        let text =
            #"{"version": 1, "canvas": {"width": 10, "height": 10}, "from": {}, "#
            + #""to": {"subviews": [{"frame": [0, 0, 1, 1], "shift": {"animations": [\#(entry)]}}]}}"#
        let document = try SceneJSON.decode(bytes: Array(text.utf8), directory: nil)
        #expect(document.problems.isEmpty, "\(entry): \(document.problems)")
        return document.scene.to.subviews[0].shift.animations
    }

    func transition(_ body: String) throws -> TransitionSpec {
        let text = #"{"version": 1, "canvas": {"width": 10, "height": 10}, "transition": \#(body), "from": {}, "to": {}}"#
        let document = try SceneJSON.decode(bytes: Array(text.utf8), directory: nil)
        #expect(document.problems.isEmpty, "\(body): \(document.problems)")
        return document.scene.transition
    }
}
