import Foundation
@testable import SceneFormat

/// A JSON Schema (draft 2020-12) validator for the subset that
/// schema/scene.schema.json uses, so the schema test needs nothing outside
/// this repository: `type`, `properties`, `required`, `additionalProperties`,
/// `minProperties`/`maxProperties`, `enum`, `const`, `items`, `prefixItems`,
/// `minItems`/`maxItems`, `minimum`/`maximum`/`exclusiveMinimum`/
/// `exclusiveMaximum`, `minLength`/`maxLength`, `pattern`, `oneOf`/`anyOf`/
/// `allOf`/`not`, and `$ref` to `#` or `#/$defs/...` (beside other keywords,
/// as 2020-12 allows). A schema using any other keyword is refused when the
/// validator is made, so the schema cannot silently rely on something that
/// is not checked here.
struct JSONSchemaValidator {
    struct UnsupportedSchema: Error, CustomStringConvertible {
        var description: String
    }

    /// One way an instance fails the schema, at a place written as the scene
    /// decoder writes it (`to.subviews[0].frame`).
    struct Failure: CustomStringConvertible, Equatable {
        var path: String
        var message: String
        var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    static let assertionKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "enum", "const",
        "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "oneOf", "anyOf", "allOf", "not", "$ref",
    ]
    static let annotationKeywords: Set<String> = ["$schema", "$id", "$defs", "title", "description", "default", "examples", "$comment"]

    let root: JSONValue
    /// Every `pattern` in the schema, compiled once.
    private let patterns: [String: NSRegularExpression]

    init(schema: JSONValue) throws {
        root = schema
        try Self.checkSupported(schema, at: "#")
        var patterns: [String: NSRegularExpression] = [:]
        for (pointer, subschema) in Self.allSchemas(in: schema) {
            guard case .object(let members) = subschema,
                case .string(let pattern)? = members.first(where: { $0.key == "pattern" })?.value.value
            else { continue }
            do {
                patterns[pattern] = try NSRegularExpression(pattern: pattern)
            } catch {
                throw UnsupportedSchema(description: "\(pointer): invalid pattern \(pattern)")
            }
        }
        self.patterns = patterns
    }

    init(schemaFileAt path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try self.init(schema: JSONReader.parse(bytes).value)
    }

    /// Every subschema, with its JSON pointer.
    static func subschemas(of schema: JSONValue, at pointer: String) -> [(pointer: String, schema: JSONValue)] {
        guard case .object(let members) = schema else { return [] }
        var found: [(String, JSONValue)] = []
        for (key, node) in members {
            switch key {
            case "properties", "$defs":
                if case .object(let children) = node.value {
                    found += children.map { ("\(pointer)/\(key)/\($0.key)", $0.value.value) }
                }
            case "prefixItems", "oneOf", "anyOf", "allOf":
                if case .array(let children) = node.value {
                    found += children.enumerated().map { ("\(pointer)/\(key)/\($0.offset)", $0.element.value) }
                }
            case "items", "additionalProperties", "not":
                found.append(("\(pointer)/\(key)", node.value))
            default:
                break
            }
        }
        return found
    }

    /// Every schema object in `schema`, itself included, with its pointer.
    static func allSchemas(in schema: JSONValue, at pointer: String = "#") -> [(pointer: String, schema: JSONValue)] {
        [(pointer, schema)] + subschemas(of: schema, at: pointer).flatMap { allSchemas(in: $0.schema, at: $0.pointer) }
    }

    private static func checkSupported(_ schema: JSONValue, at pointer: String) throws {
        for (pointer, schema) in allSchemas(in: schema, at: pointer) {
            switch schema {
            case .bool: continue
            case .object(let members):
                for (key, _) in members where !assertionKeywords.contains(key) && !annotationKeywords.contains(key) {
                    throw UnsupportedSchema(description: "\(pointer): keyword \"\(key)\" is not supported by the test's validator")
                }
            default:
                throw UnsupportedSchema(description: "\(pointer): a schema must be an object or a boolean")
            }
        }
    }

    /// The schema at a JSON pointer such as `#/$defs/view`.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var current = root
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let members):
                guard let next = members.first(where: { $0.key == key }) else { return nil }
                current = next.value.value
            case .array(let elements):
                guard let i = Int(key), elements.indices.contains(i) else { return nil }
                current = elements[i].value
            default:
                return nil
            }
        }
        return current
    }

    func validate(_ instance: JSONValue) -> [Failure] {
        var failures: [Failure] = []
        validate(instance, against: root, path: "", into: &failures, depth: 0)
        return failures
    }

    func isValid(_ instance: JSONValue, against schema: JSONValue) -> Bool {
        var failures: [Failure] = []
        validate(instance, against: schema, path: "", into: &failures, depth: 0)
        return failures.isEmpty
    }

    // MARK: Keywords

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func validate(_ instance: JSONValue, against schema: JSONValue, path: String, into failures: inout [Failure], depth: Int) {
        func fail(_ message: String, at place: String? = nil) { failures.append(Failure(path: place ?? path, message: message)) }
        guard depth < 200 else {
            fail("schema recursion deeper than 200")
            return
        }
        switch schema {
        case .bool(true): return
        case .bool(false):
            fail("no value is allowed here")
            return
        case .object: break
        default:
            fail("invalid schema")
            return
        }
        guard case .object(let pairs) = schema else { return }
        let keywords = Dictionary(pairs.map { ($0.key, $0.value.value) }, uniquingKeysWith: { a, _ in a })

        if case .string(let reference)? = keywords["$ref"] {
            if let target = resolve(reference) {
                validate(instance, against: target, path: path, into: &failures, depth: depth + 1)
            } else {
                fail("unresolvable $ref \(reference)")
            }
        }
        if let type = keywords["type"] {
            let names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let list): names = list.compactMap { if case .string(let s) = $0.value { s } else { nil } }
            default: names = []
            }
            if !names.contains(where: { Self.matches(instance, type: $0) }) {
                fail("expected \(names.joined(separator: " or ")), got \(instance.kindName)")
                return  // the other keywords would only repeat the point
            }
        }
        if case .array(let options)? = keywords["enum"], !options.contains(where: { Self.equal($0.value, instance) }) {
            fail("value is not one of the enum \(options.map { Self.text($0.value) }.joined(separator: ", "))")
        }
        if let constant = keywords["const"], !Self.equal(constant, instance) {
            fail("value must be \(Self.text(constant))")
        }
        if case .number(let n) = instance {
            if case .number(let m)? = keywords["minimum"], n < m { fail("\(n) is less than the minimum \(m)") }
            if case .number(let m)? = keywords["maximum"], n > m { fail("\(n) is more than the maximum \(m)") }
            if case .number(let m)? = keywords["exclusiveMinimum"], n <= m { fail("\(n) is not greater than \(m)") }
            if case .number(let m)? = keywords["exclusiveMaximum"], n >= m { fail("\(n) is not less than \(m)") }
        }
        if case .string(let s) = instance {
            let length = s.unicodeScalars.count
            if case .number(let m)? = keywords["minLength"], Double(length) < m { fail("shorter than \(m) characters") }
            if case .number(let m)? = keywords["maxLength"], Double(length) > m { fail("longer than \(m) characters") }
            if case .string(let pattern)? = keywords["pattern"] {
                if let regex = patterns[pattern] {
                    let range = NSRange(s.startIndex..., in: s)
                    if regex.firstMatch(in: s, range: range) == nil { fail("\"\(s)\" does not match \(pattern)") }
                } else {
                    fail("invalid pattern \(pattern)")
                }
            }
        }
        if case .array(let elements) = instance {
            if case .number(let m)? = keywords["minItems"], Double(elements.count) < m { fail("fewer than \(Int(m)) items") }
            if case .number(let m)? = keywords["maxItems"], Double(elements.count) > m { fail("more than \(Int(m)) items") }
            var prefixCount = 0
            if case .array(let prefix)? = keywords["prefixItems"] {
                prefixCount = prefix.count
                for (i, (element, itemSchema)) in zip(elements, prefix).enumerated() {
                    validate(element.value, against: itemSchema.value, path: "\(path)[\(i)]", into: &failures, depth: depth + 1)
                }
            }
            if let items = keywords["items"] {
                for (i, element) in elements.enumerated() where i >= prefixCount {
                    validate(element.value, against: items, path: "\(path)[\(i)]", into: &failures, depth: depth + 1)
                }
            }
        }
        if case .object(let members) = instance {
            if case .number(let m)? = keywords["minProperties"], Double(members.count) < m { fail("fewer than \(Int(m)) properties") }
            if case .number(let m)? = keywords["maxProperties"], Double(members.count) > m { fail("more than \(Int(m)) properties") }
            var declared: [String: JSONValue] = [:]
            if case .object(let properties)? = keywords["properties"] {
                for (key, node) in properties { declared[key] = node.value }
            }
            for (key, value) in members {
                if let propertySchema = declared[key] {
                    validate(value.value, against: propertySchema, path: join(path, key), into: &failures, depth: depth + 1)
                } else if let additional = keywords["additionalProperties"] {
                    if case .bool(false) = additional {
                        fail("unknown property \"\(key)\"", at: join(path, key))
                    } else {
                        validate(value.value, against: additional, path: join(path, key), into: &failures, depth: depth + 1)
                    }
                }
            }
            if case .array(let required)? = keywords["required"] {
                for case .string(let key) in required.map(\.value) where !members.contains(where: { $0.key == key }) {
                    fail("required property \"\(key)\" is missing", at: join(path, key))
                }
            }
        }
        if case .array(let options)? = keywords["allOf"] {
            for option in options { validate(instance, against: option.value, path: path, into: &failures, depth: depth + 1) }
        }
        if case .array(let options)? = keywords["anyOf"] {
            if !options.contains(where: { isValid(instance, against: $0.value, depth: depth + 1) }) {
                fail("matches none of the anyOf alternatives")
            }
        }
        if case .array(let options)? = keywords["oneOf"] {
            let matching = options.filter { isValid(instance, against: $0.value, depth: depth + 1) }.count
            if matching != 1 {
                // When exactly one alternative has the right type, its own
                // failures say more than "matches none".
                let typed = options.filter { Self.typeAllows($0.value, instance) }
                if matching == 0, typed.count == 1 {
                    let before = failures.count
                    validate(instance, against: typed[0].value, path: path, into: &failures, depth: depth + 1)
                    if failures.count == before { fail("matches none of the oneOf alternatives") }
                } else {
                    fail(
                        matching == 0
                            ? "matches none of the oneOf alternatives" : "matches \(matching) of the oneOf alternatives, not exactly one")
                }
            }
        }
        if let negated = keywords["not"], isValid(instance, against: negated, depth: depth + 1) {
            fail("must not match the \"not\" schema")
        }
    }

    private func isValid(_ instance: JSONValue, against schema: JSONValue, depth: Int) -> Bool {
        var failures: [Failure] = []
        validate(instance, against: schema, path: "", into: &failures, depth: depth)
        return failures.isEmpty
    }

    /// Whether the schema's `type` or `const` (if any) admits the instance's kind.
    private static func typeAllows(_ schema: JSONValue, _ instance: JSONValue) -> Bool {
        guard case .object(let pairs) = schema else { return true }
        if let type = pairs.first(where: { $0.key == "type" })?.value.value {
            if case .string(let name) = type { return matches(instance, type: name) }
            return true
        }
        if let constant = pairs.first(where: { $0.key == "const" })?.value.value {
            return constant.kindName == instance.kindName
        }
        return true
    }

    static func matches(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .number(let n)):
            return n == n.rounded()
        default:
            return false
        }
    }

    /// JSON equality: numbers by value, objects regardless of key order.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { pair in y.contains { $0.key == pair.key && equal($0.value.value, pair.value.value) } }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0.value, $1.value) }
        default:
            return a == b
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        default: return value.kindName
        }
    }
}
