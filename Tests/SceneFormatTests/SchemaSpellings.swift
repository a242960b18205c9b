@testable import SceneFormat

/// The ways schema/scene.schema.json lets a scene say something, as lines
/// such as `view.cornerRadius: number`, `canvas.background: array of 4`,
/// `shift.position = back` or `shift.animations[].move: object`, read from
/// the schema itself or from a written scene.
///
/// A spelling is a path of keys from the object definition it belongs to
/// (`view`, `shift`, `transform`, ...; the top level is `scene`) and either
/// the JSON form the value takes there (`: number`, `: array of 2`) or, for
/// enum and const values, the value (`= onAppear`). Paths restart at each
/// object definition so that a view key is one spelling whether the view is
/// a root or a subview at any depth (array indices fold to `[]` the same
/// way), and the schema's recursion (view -> subviews -> view) ends. The
/// reference at the place an object is used is a spelling too
/// (`scene.from: object`, `shift.animations[].transform: object`).
///
/// Both readings walk the same way (`properties`, `$defs` through `$ref`,
/// `oneOf`, `items`, `prefixItems`): the schema's through every branch, a
/// document's through the branch its values match, so that the two sets
/// compare exactly.
struct SchemaSpellings {
    let validator: JSONSchemaValidator

    /// A spelling whose value is the schema's `default` there: where it is
    /// the writer leaves the key out, so it can only be checked by decoding.
    struct DefaultValue {
        var parent: String
        var key: String
        var value: JSONValue
    }

    /// Every spelling the schema allows, and the ones among them that are a default value.
    func ofSchema() -> (spellings: Set<String>, defaults: [String: DefaultValue]) {
        var walk = SchemaWalk(spellings: self)
        walk.schema(validator.root, path: "scene", inheritedDefault: nil)
        return (walk.found, walk.defaults)
    }

    /// The spellings `document` uses, and where in it each object path stands.
    func ofDocument(_ document: JSONValue) -> (spellings: Set<String>, objects: [String: [[JSONText.Step]]]) {
        var walk = DocumentWalk(spellings: self)
        walk.value(document, schema: validator.root, path: "scene", steps: [])
        return (walk.found, walk.objects)
    }

    // MARK: Shared rules

    static func member(_ key: String, of value: JSONValue?) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.key == key }?.value.value
    }

    /// The definition name when `reference` names an object definition (one
    /// with `properties`): paths restart there.
    func objectDefinition(_ reference: String) -> (name: String, schema: JSONValue)? {
        guard reference.hasPrefix("#/$defs/"), let target = validator.resolve(reference),
            Self.member("properties", of: target) != nil
        else { return nil }
        return (String(reference.dropFirst("#/$defs/".count)), target)
    }

    /// A node that says what a value is, as opposed to a choice of forms (a
    /// bare `oneOf`) or a constraint (`oneOf` of `required` lists).
    static func isForm(_ node: JSONValue) -> Bool {
        ["type", "const", "enum"].contains { member($0, of: node) != nil }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array, .object: return JSONText.write(value)
        }
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Every branch of the schema.
private struct SchemaWalk {
    let spellings: SchemaSpellings
    var found = Set<String>()
    var defaults: [String: SchemaSpellings.DefaultValue] = [:]
    private var walkedDefinitions = Set<String>()

    init(spellings: SchemaSpellings) { self.spellings = spellings }

    mutating func schema(_ node: JSONValue, path: String, inheritedDefault: JSONValue?) {
        let member = SchemaSpellings.member
        let defaultValue = member("default", node) ?? inheritedDefault
        if case .string(let reference)? = member("$ref", node) {
            if let (name, target) = spellings.objectDefinition(reference) {
                found.insert("\(path): object")
                if walkedDefinitions.insert(name).inserted { schema(target, path: name, inheritedDefault: nil) }
            } else if let target = spellings.validator.resolve(reference) {
                schema(target, path: path, inheritedDefault: defaultValue)
            } else {
                found.insert("\(path): unresolved \(reference)")
            }
            return
        }
        if !SchemaSpellings.isForm(node), case .array(let alternatives)? = member("oneOf", node) {
            for alternative in alternatives { schema(alternative.value, path: path, inheritedDefault: defaultValue) }
            return
        }
        var values: [JSONValue] = []
        if let constant = member("const", node) { values = [constant] }
        if case .array(let listed)? = member("enum", node) { values = listed.map(\.value) }
        for value in values {
            let spelling = "\(path) = \(SchemaSpellings.text(value))"
            found.insert(spelling)
            if value == defaultValue, let dot = path.lastIndex(of: ".") {
                let key = String(path[path.index(after: dot)...])
                defaults[spelling] = .init(parent: String(path[..<dot]), key: key, value: value)
            }
        }
        if values.count == 1, member("type", node) == nil { found.insert("\(path): \(SchemaSpellings.kind(values[0]))") }
        guard case .string(let type)? = member("type", node) else { return }
        switch type {
        case "object":
            found.insert("\(path): object")
            guard case .object(let properties)? = member("properties", node) else { return }
            for (key, property) in properties { schema(property.value, path: "\(path).\(key)", inheritedDefault: nil) }
        case "array":
            if case .array(let positions)? = member("prefixItems", node) {
                found.insert("\(path): array of \(positions.count)")
                for position in positions { schema(position.value, path: "\(path)[]", inheritedDefault: nil) }
            }
            if let items = member("items", node) {
                found.insert("\(path): array")
                schema(items, path: "\(path)[]", inheritedDefault: nil)
            }
        case "integer":
            found.insert("\(path): number")  // a document has only numbers; whole ones are the decoder's to insist on
        default:
            found.insert("\(path): \(type)")
        }
    }
}

/// The branch of the schema each value of a document takes.
private struct DocumentWalk {
    let spellings: SchemaSpellings
    var found = Set<String>()
    var objects: [String: [[JSONText.Step]]] = [:]

    init(spellings: SchemaSpellings) { self.spellings = spellings }

    mutating func value(_ value: JSONValue, schema node: JSONValue, path: String, steps: [JSONText.Step]) {
        let member = SchemaSpellings.member
        if case .string(let reference)? = member("$ref", node) {
            if let (name, target) = spellings.objectDefinition(reference) {
                found.insert("\(path): object")
                self.value(value, schema: target, path: name, steps: steps)
            } else if let target = spellings.validator.resolve(reference) {
                self.value(value, schema: target, path: path, steps: steps)
            }
            return
        }
        if !SchemaSpellings.isForm(node), case .array(let alternatives)? = member("oneOf", node) {
            guard let taken = alternatives.first(where: { spellings.validator.isValid(value, against: $0.value) }) else {
                found.insert("\(path): \(JSONText.write(value)) matches no form")
                return
            }
            self.value(value, schema: taken.value, path: path, steps: steps)
            return
        }
        let kind = SchemaSpellings.kind(value)
        if member("const", node) != nil || member("enum", node) != nil {
            found.insert("\(path) = \(SchemaSpellings.text(value))")
        }
        switch value {
        case .object(let members):
            found.insert("\(path): object")
            objects[path, default: []].append(steps)
            let properties = member("properties", node)
            for (key, element) in members {
                guard let property = member(key, properties) else {
                    found.insert("\(path).\(key): not in the schema")
                    continue
                }
                self.value(element.value, schema: property, path: "\(path).\(key)", steps: steps + [.key(key)])
            }
        case .array(let elements):
            let positions: [JSONNode]
            if case .array(let listed)? = member("prefixItems", node) { positions = listed } else { positions = [] }
            found.insert(positions.isEmpty ? "\(path): array" : "\(path): array of \(elements.count)")
            for (i, element) in elements.enumerated() {
                guard let schema = i < positions.count ? positions[i].value : member("items", node) else {
                    found.insert("\(path)[]: not in the schema")
                    continue
                }
                self.value(element.value, schema: schema, path: "\(path)[]", steps: steps + [.index(i)])
            }
        default:
            found.insert("\(path): \(kind)")
        }
    }
}
