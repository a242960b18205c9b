import Foundation
import Testing
@testable import SceneFormat
import SceneModel
import ShiftRender

/// schema/scene.schema.json and the decoder describe one format: the same keys
/// in every kind of object, the same enum values, and the same verdict on the
/// fixtures and on thousands of small changes to a scene that uses every key.
@Suite struct SchemaTests {
    let validator: JSONSchemaValidator
    let schema: JSONValue

    init() throws {
        validator = try JSONSchemaValidator(schemaFileAt: Repository.schemaPath)
        schema = validator.root
    }

    /// Which decoder key list each object in the schema stands for.
    static let objectKinds: [(pointer: String, keys: [String])] = [
        ("#", SceneKeys.scene),
        ("#/$defs/canvas", SceneKeys.canvas),
        ("#/$defs/transition", SceneKeys.transition),
        ("#/$defs/hold", SceneKeys.hold),
        ("#/$defs/defaultAnimation/oneOf/1", SceneKeys.defaultAnimation),
        ("#/$defs/view", SceneKeys.view),
        ("#/$defs/shadow", SceneKeys.shadow),
        ("#/$defs/gradient", SceneKeys.gradient),
        ("#/$defs/transform", SceneKeys.transform),
        ("#/$defs/blur", SceneKeys.blur),
        ("#/$defs/shift", SceneKeys.shift),
        ("#/$defs/animation/oneOf/1", SceneKeys.animation),
        ("#/$defs/move", SceneKeys.move),
        ("#/$defs/text/oneOf/1", SceneKeys.text),
        ("#/$defs/font/oneOf/1", SceneKeys.font),
        ("#/$defs/curveFunction", SceneKeys.curveFunction),
        ("#/$defs/spring/oneOf/0", SceneKeys.springSpellings[0].keys),
        ("#/$defs/spring/oneOf/1", SceneKeys.springSpellings[1].keys),
        ("#/$defs/spring/oneOf/2", SceneKeys.springSpellings[2].keys),
        ("#/$defs/spring/oneOf/3", SceneKeys.springSpellings[3].keys),
        ("#/$defs/cascadeOptions", SceneKeys.cascade),
        ("#/$defs/keyframes", SceneKeys.keyframes),
        ("#/$defs/navigationBuiltIn", SceneKeys.navigationBuiltIn),
        ("#/$defs/composedNavigation", SceneKeys.composedNavigation),
        ("#/$defs/asymmetricNavigation", SceneKeys.asymmetricNavigation),
        ("#/$defs/rootTransitions", SceneKeys.rootTransitions),
        ("#/$defs/atomicChange", SceneKeys.atomic),
        ("#/$defs/rotate3D", SceneKeys.rotate3D),
        ("#/$defs/presentation", SceneKeys.presentation),
        ("#/$defs/dimmingOptions", SceneKeys.dimming),
        ("#/$defs/interaction", SceneKeys.interaction),
        ("#/$defs/interactionRule/oneOf/1", SceneKeys.thresholdRule),
    ]

    /// Each enum in the schema and the decoder's cases for it.
    static let enums: [(pointer: String, cases: [String])] = [
        ("#/$defs/transition/properties/direction", TransitionDirection.allCases.map(\.rawValue)),
        ("#/$defs/transition/properties/viewOrder", ViewOrder.allCases.map(\.rawValue)),
        ("#/$defs/view/properties/contentMode", ContentMode.allCases.map(\.rawValue)),
        ("#/$defs/gradient/properties/type", GradientSpec.Kind.allCases.map(\.rawValue)),
        ("#/$defs/blur/properties/style", BlurStyle.allCases.map(\.rawValue)),
        ("#/$defs/shift/properties/contentAnimation", ShiftOptions.ContentAnimation.allCases.map(\.rawValue)),
        ("#/$defs/shift/properties/contentSizing", ShiftOptions.ContentSizing.allCases.map(\.rawValue)),
        ("#/$defs/shift/properties/superview", ShiftOptions.SuperviewChoice.allCases.map(\.rawValue)),
        ("#/$defs/shift/properties/position", ShiftOptions.Position.allCases.map(\.rawValue)),
        ("#/$defs/animation/oneOf/1/properties/when", AdditionalAnimation.Condition.allCases.map(\.rawValue)),
        ("#/$defs/text/oneOf/1/properties/alignment", TextAlignment.allCases.map(\.rawValue)),
        ("#/$defs/text/oneOf/1/properties/lineBreakMode", LineBreakMode.allCases.map(\.rawValue)),
        ("#/$defs/font/oneOf/0", TextStyle.allCases.map(\.rawValue)),
        ("#/$defs/font/oneOf/1/properties/weight", FontWeight.allCases.map(\.rawValue)),
        ("#/$defs/curve/oneOf/0", NamedCurve.allCases.map(\.rawValue)),
        ("#/$defs/cascadeOptions/properties/direction", CascadeDirection.allCases.map(\.rawValue)),
        ("#/$defs/navigation/oneOf/0", SceneKeys.navigationNames),
        ("#/$defs/navigationBuiltIn/properties/slide/oneOf/0", NavigationSpec.SlideAxis.allCases.map(\.rawValue)),
        ("#/$defs/navigationBuiltIn/properties/fade", NavigationSpec.FadeStyle.allCases.map(\.rawValue)),
        ("#/$defs/heroDirection", HeroDirection.allCases.map(\.rawValue)),
        ("#/$defs/atomicTransition/oneOf/0", SceneKeys.atomicNames),
        ("#/$defs/atomicChange/properties/move", AtomicTransition.Edge.allCases.map(\.rawValue)),
        ("#/$defs/presentation/properties/style", PresentationStyle.allCases.map(\.rawValue)),
        ("#/$defs/interaction/properties/axis", InteractionSpec.Axis.allCases.map(\.rawValue)),
        ("#/$defs/interactionRule/oneOf/0", InteractionRule.names),
    ]

    func member(_ key: String, of value: JSONValue?) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.key == key }?.value.value
    }

    func propertyNames(at pointer: String) -> [String] {
        guard case .object(let properties)? = member("properties", of: validator.resolve(pointer)) else { return [] }
        return properties.map(\.key)
    }

    // MARK: The schema itself

    @Test func isDraft2020AndUsesOnlyWhatTheValidatorChecks() throws {
        #expect(member("$schema", of: schema) == .string("https://json-schema.org/draft/2020-12/schema"))
        // JSONSchemaValidator.init throws on any keyword it does not implement;
        // every $ref resolves.
        for (pointer, subschema) in JSONSchemaValidator.allSchemas(in: schema) {
            if case .string(let reference)? = member("$ref", of: subschema) {
                #expect(validator.resolve(reference) != nil, "\(pointer): $ref \(reference) does not resolve")
            }
        }
    }

    @Test func everyObjectIsClosedAndEveryPropertyDescribed() {
        for (pointer, subschema) in JSONSchemaValidator.allSchemas(in: schema) {
            guard case .object(let properties)? = member("properties", of: subschema) else { continue }
            #expect(member("additionalProperties", of: subschema) == .bool(false), "\(pointer) lets unknown keys through")
            for (key, node) in properties {
                var described = member("description", of: node.value) != nil
                if !described, case .string(let reference)? = member("$ref", of: node.value) {
                    described = member("description", of: validator.resolve(reference)) != nil
                }
                #expect(described, "\(pointer)/properties/\(key) has no description for editors to show")
            }
        }
    }

    // MARK: The schema and the decoder know the same keys

    @Test(arguments: objectKinds.map(\.pointer))
    func keysKnownToOneAreKnownToTheOther(pointer: String) throws {
        let decoderKeys = try #require(Self.objectKinds.first { $0.pointer == pointer }).keys
        let schemaKeys = propertyNames(at: pointer)
        #expect(!schemaKeys.isEmpty, "no object with properties at \(pointer)")
        #expect(Set(schemaKeys).subtracting(decoderKeys).sorted() == [], "in the schema at \(pointer) but unknown to the decoder")
        #expect(Set(decoderKeys).subtracting(schemaKeys).sorted() == [], "known to the decoder but missing from the schema at \(pointer)")
        #expect(schemaKeys.count == Set(schemaKeys).count && decoderKeys.count == Set(decoderKeys).count)
    }

    @Test func everyObjectInTheSchemaIsMatchedToADecoderKeyList() {
        let withProperties = JSONSchemaValidator.allSchemas(in: schema)
            .filter { member("properties", of: $0.schema) != nil }.map(\.pointer)
        #expect(Set(withProperties) == Set(Self.objectKinds.map(\.pointer)))
    }

    @Test func anAnimationObjectNamesExactlyOneAnimation() throws {
        // The schema says "exactly one of these keys" with oneOf: [{required: [name]}, ...].
        let resolved = validator.resolve("#/$defs/animation/oneOf/1")
        let object = try #require(resolved)
        guard case .array(let alternatives)? = member("oneOf", of: object) else {
            Issue.record("no oneOf")
            return
        }
        let names = alternatives.compactMap { alternative -> String? in
            guard case .array(let required)? = member("required", of: alternative.value), required.count == 1,
                case .string(let name) = required[0].value
            else { return nil }
            return name
        }
        #expect(names == SceneKeys.animationNames)
    }

    @Test(arguments: enums.map(\.pointer))
    func enumsHaveTheDecodersValues(pointer: String) throws {
        let cases = try #require(Self.enums.first { $0.pointer == pointer }).cases
        guard case .array(let values)? = member("enum", of: validator.resolve(pointer)) else {
            Issue.record("no enum at \(pointer)")
            return
        }
        #expect(values.map(\.value) == cases.map { JSONValue.string($0) })
    }

    // MARK: The same verdict

    static var validScenes: [String] { Repository.files(in: "fixtures/scenes", withExtension: "json") }

    @Test(arguments: validScenes)
    func everyFixtureSceneValidatesAgainstBoth(file: String) throws {
        do {
            _ = try loadScene(fileAt: file)
        } catch {
            Issue.record("the decoder refuses \(file): \(error)")
        }
        let value = try JSONReader.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: file)))).value
        #expect(validator.validate(value) == [], "the schema refuses \(file)")
    }

    /// The kitchen sink with a navigation or a presentation each: between them every key of both.
    @Test(arguments: navigationKitchenSinks.indices)
    func theNavigationKitchenSinksValidateAgainstBoth(index: Int) throws {
        let text = navigationKitchenSinks[index]
        let value = try JSONText.parse(text)
        #expect(validator.validate(value) == [])
        #expect(Self.decoderIssues(value) == [])
        let scene = try loadScene(bytes: Array(text.utf8), file: "kitchen-sink.json", baseDirectory: Repository.path("fixtures/scenes"))
        #expect(scene.transition.navigation != nil || scene.transition.presentation != nil)
    }

    /// The kitchen sink with a finger driving it, in each form: between them every key of `interaction`.
    @Test(arguments: interactionKitchenSinks.indices)
    func theInteractionKitchenSinksValidateAgainstBoth(index: Int) throws {
        let text = interactionKitchenSinks[index]
        let value = try JSONText.parse(text)
        #expect(validator.validate(value) == [])
        #expect(Self.decoderIssues(value) == [])
        let scene = try loadScene(bytes: Array(text.utf8), file: "kitchen-sink.json", baseDirectory: Repository.path("fixtures/scenes"))
        #expect(scene.transition.interaction != nil)
    }

    @Test func theSceneUsingEveryKeyValidatesAgainstBoth() throws {
        let scene = try loadScene(
            bytes: Array(kitchenSinkScene.utf8), file: "kitchen-sink.json",
            baseDirectory: Repository.path("fixtures/scenes"))
        var images = Set<ImageSource>()
        scene.forEachView { view, _, _ in if let image = view.image { images.insert(image) } }
        #expect(images.count == 2)
        #expect(scene.to.subviews[0].subviews[0].isHidden)
        #expect(validator.validate(try JSONText.parse(kitchenSinkScene)) == [])
        // It does use every key.
        var used = Set<String>()
        for text in [kitchenSinkScene] + navigationKitchenSinks + interactionKitchenSinks {
            for place in JSONText.places(in: try JSONText.parse(text)) {
                if case .key(let k)? = place.last { used.insert(k) }
            }
        }
        let all =
            SceneKeys.scene + SceneKeys.canvas + SceneKeys.transition + SceneKeys.hold + SceneKeys.defaultAnimation
            + SceneKeys.view + SceneKeys.shadow + SceneKeys.gradient + SceneKeys.transform + SceneKeys.blur
            + SceneKeys.shift + SceneKeys.animation
            + SceneKeys.move + SceneKeys.text + SceneKeys.font + SceneKeys.curveFunction + SceneKeys.spring + SceneKeys.cascade
            + SceneKeys.keyframes + SceneKeys.navigation + SceneKeys.rootTransitions + SceneKeys.atomic + SceneKeys.rotate3D
            + SceneKeys.presentation + SceneKeys.dimming + SceneKeys.interaction + SceneKeys.thresholdRule
        #expect(Set(all).subtracting(used).sorted() == [])
    }

    /// The `schema` column of fixtures/invalid/expected.json: (file, verdict).
    static var invalidFixtures: [String] {
        let url = URL(fileURLWithPath: Repository.path("fixtures/invalid/expected.json"))
        guard let data = try? Data(contentsOf: url),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = json["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { c in (c["file"] as? String).map { "\($0) \(c["schema"] as? String ?? "?")" } }
    }

    /// Each bad-input file is refused by the schema too when its problem is one
    /// a JSON Schema can state (at a place related to the decoder's), accepted
    /// by it when the problem is beyond a schema, and not JSON when the reader
    /// says so.
    @Test(arguments: invalidFixtures)
    func invalidFixturesGetTheVerdictTheTableGives(entry: String) throws {
        let parts = entry.split(separator: " ").map(String.init)
        let (file, verdict) = (parts[0], parts[1])
        let path = Repository.path("fixtures/invalid/" + file)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let parsed = Result { () throws(JSONReader.SyntaxError) in try JSONReader.parse(bytes) }
        var decoderIssues: [SceneProblem] = []
        do {
            _ = try loadScene(bytes: bytes, file: file, baseDirectory: Repository.path("fixtures/invalid"))
        } catch {
            decoderIssues = error.issues
        }
        switch (verdict, parsed) {
        case ("not-json", .failure):
            #expect(!decoderIssues.isEmpty)
        case ("rejects", .success(let root)):
            let failures = validator.validate(root.value)
            #expect(!failures.isEmpty, "the schema accepts \(file)")
            #expect(!decoderIssues.isEmpty, "the decoder accepts \(file)")
            #expect(
                decoderIssues.contains { issue in failures.contains { pathsAreRelated(issue.schemaPath, $0.path) } },
                "\(file): decoder at \(decoderIssues.map(\.schemaPath)), schema at \(failures.map(\.path))")
        case ("accepts", .success(let root)):
            #expect(validator.validate(root.value) == [], "\(file) is marked as beyond the schema, but the schema refuses it")
            #expect(decoderIssues.isEmpty == (file == "unwritable-output.json"), "\(file): \(decoderIssues)")
        default:
            Issue.record("\(file): the table says \(verdict), but the JSON reader says \(parsed)")
        }
    }

    /// Decoder problems the schema cannot express (arithmetic across keys,
    /// uniqueness, counts, files), told apart by their messages.
    static func isBeyondTheSchema(_ issue: SceneProblem) -> Bool {
        [
            "px; the limit is", "is less than one pixel", "duplicate id", "views nest deeper", "views in the scene", "image \"",
            "give one location per colour", "locations must not decrease", "stops must not decrease", "this spring does not settle",
            "singular: the matrix flattens", "gesture times must increase",
        ]
        .contains { issue.message.contains($0) }
    }

    /// What validate says of a scene, but for its images and fonts (files: the kitchen sink's live elsewhere).
    static func decoderIssues(_ value: JSONValue) -> [SceneProblem] {
        var decoder = SceneDecoder()
        let scene = decoder.decodeScene(JSONText.node(value), directory: "/nonexistent")
        let document = SceneDocument(scene: scene, file: "mutated.json", problems: decoder.problems, locations: decoder.locations)
        return SceneDiagnostics(validating: scene, document: document).errors.filter {
            !$0.message.hasPrefix("image \"") && !$0.message.hasPrefix("no font file at")
                && !$0.message.hasPrefix("no installed font family")
        }
    }

    /// Thousands of one-step changes to the scene that uses every key: a number
    /// swapped for an edge value, a value for one of another type, a key
    /// dropped or misspelt. The decoder and the schema must agree on each, and
    /// when both refuse, they must point at related places.
    @Test func mutationsGetTheSameVerdictFromBoth() throws {
        try mutate(rounds: 3000, seed: 20_240_601, refusedAtLeast: 500) { _ in true }
    }

    /// The same, only at and under the timing keys (curves, springs,
    /// keyframes...): a few dozen of the kitchen sink's thousands of places,
    /// which the run above reaches only now and then.
    @Test func mutationsOfTheTimingKeysGetTheSameVerdictFromBoth() throws {
        try mutate(rounds: 3000, seed: 20_261_123, refusedAtLeast: 500) { place in
            place.contains { step in
                if case .key(let key) = step { return SceneKeys.timing.contains(key) } else { return false }
            }
        }
    }

    /// The same at and under `navigation` and `presentation`, in each kitchen sink that has one.
    @Test(arguments: navigationKitchenSinks.indices)
    func mutationsOfTheNavigationKeysGetTheSameVerdictFromBoth(index: Int) throws {
        try mutate(scene: navigationKitchenSinks[index], rounds: 300, seed: 20_261_124 + UInt64(index), refusedAtLeast: 50) { place in
            place.contains { $0 == .key("navigation") || $0 == .key("presentation") }
        }
    }

    /// The same at and under `interaction`, in the kitchen sinks with the most keys there (a threshold rule
    /// object with both keys, a given velocity; a named rule and the default axis).
    @Test(arguments: [0, 2])
    func mutationsOfTheInteractionKeysGetTheSameVerdictFromBoth(index: Int) throws {
        try mutate(scene: interactionKitchenSinks[index], rounds: 300, seed: 20_261_125 + UInt64(index), refusedAtLeast: 50) { place in
            place.contains { $0 == .key("interaction") }
        }
    }

    func mutate(
        scene: String = kitchenSinkScene, rounds: Int, seed: UInt64, refusedAtLeast: Int, at chosen: ([JSONText.Step]) -> Bool
    ) throws {
        let original = try JSONText.parse(scene)
        let places = JSONText.places(in: original).filter(chosen)
        let numbers: [Double] = [
            -1e7, -36001, -1001, -1, -0.5, 0, 0.5, 1, 1.5, 2, 8, 8.5, 100, 101, 240, 241, 600, 601,
            1000, 1001, 8192, 8193, 36001, 1e6, 1.5e6,
        ]
        let others: [JSONValue] = [
            .null, .bool(true), .string(""), .string("fade"), .string("none"), .string("up"), .string("container"),
            .string("#FFF"), .string("#FFFF"), .string("#GGG"), .string("bogus"), .array([]),
            .array([JSONText.node(.number(1)), JSONText.node(.number(2))]),
            .array([0, 0, 1, 1].map { JSONText.node(.number($0)) }), .array([0, 0, 1, 2].map { JSONText.node(.number($0)) }),
            .object([]), .object([("scale", JSONText.node(.string("up")))]),
        ]
        var generator = SeededGenerator(state: seed)
        var disagreements: [String] = []
        var refusedByBoth = 0
        for round in 0 ..< rounds {
            let place = places.randomElement(using: &generator)!
            var mutated: JSONValue?
            switch Int.random(in: 0 ..< 4, using: &generator) {
            case 0:
                guard case .number? = JSONText.value(in: original, at: place) else { continue }
                mutated = JSONText.replacing(original, at: place, with: .number(numbers.randomElement(using: &generator)!))
            case 1:
                mutated = JSONText.replacing(original, at: place, with: others.randomElement(using: &generator)!)
            case 2:
                guard !place.isEmpty else { continue }
                mutated = JSONText.replacing(original, at: place, with: nil)
            default:
                let key = ["bogus", "frames", "colour", "$schema", "when", "scale", "id", "fade"].randomElement(using: &generator)!
                mutated = JSONText.adding(key, .number(1), to: original, at: place)
            }
            guard let mutated, mutated != original else { continue }
            let issues = Self.decoderIssues(mutated).filter { !Self.isBeyondTheSchema($0) }
            let failures = validator.validate(mutated)
            if issues.isEmpty != failures.isEmpty {
                disagreements.append(
                    "round \(round): decoder \(issues.isEmpty ? "accepts" : "refuses: \(issues)"); "
                        + "schema \(failures.isEmpty ? "accepts" : "refuses: \(failures)")\n  \(JSONText.write(mutated))")
            } else if !issues.isEmpty {
                refusedByBoth += 1
                let related = issues.contains { issue in failures.contains { pathsAreRelated(issue.schemaPath, $0.path) } }
                if !related {
                    disagreements.append(
                        "round \(round): unrelated places: decoder \(issues.map(\.schemaPath)), schema \(failures.map(\.path))\n  "
                            + JSONText.write(mutated)
                    )
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first:\n\(disagreements.prefix(5).joined(separator: "\n"))")
        #expect(refusedByBoth > refusedAtLeast, "too few mutations were refusals: \(refusedByBoth)")
    }
}
