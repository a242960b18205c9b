import Testing
@testable import SceneFormat

@Suite struct JSONReaderTests {
    func syntaxError(_ text: String) -> JSONReader.SyntaxError? {
        do { _ = try JSONReader.parse(Array(text.utf8)); return nil } catch { return error }
    }

    @Test func parsesNestedValuesKeepingKeyOrderAndPlaces() throws {
        let node = try JSONReader.parse(Array("{\n  \"b\": [1, 2.5e1, -0.5],\n  \"a\": {\"s\": \"x\\u00e9\\n\"}, \"t\": true, \"n\": null\n}".utf8))
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "t", "n"])
        #expect(members[0].value.line == 2 && members[0].value.column == 8)
        #expect(members[0].value.value == .array([
            JSONNode(value: .number(1), line: 2, column: 9), JSONNode(value: .number(25), line: 2, column: 12),
            JSONNode(value: .number(-0.5), line: 2, column: 19),
        ]))
        guard case .object(let inner) = members[1].value.value else { Issue.record("not an object"); return }
        #expect(inner[0].value.value == .string("x\u{e9}\n"))
    }

    @Test func reportsLineAndColumnOfSyntaxErrors() {
        #expect(syntaxError("{\n  \"a\": 1,\n  \"b\" 2\n}") == JSONReader.SyntaxError(message: "unexpected '2'; expected ':' after key \"b\"", line: 3, column: 7))
        #expect(syntaxError("{\"a\": [1, 2,]}")?.message == "trailing comma before ']'")
        #expect(syntaxError("{\"a\": 1")?.message.contains("truncated") == true)
        #expect(syntaxError("")?.message.contains("empty") == true)
        #expect(syntaxError("{\"a\": NaN}")?.message.contains("expected a JSON value") == true)
        #expect(syntaxError("{\"a\": 1e999}")?.message.contains("out of range") == true)
        #expect(syntaxError("{\"a\": 1, \"a\": 2}")?.message == "duplicate key \"a\"")
        #expect(syntaxError("{\"a\": 01}")?.message.contains("leading zero") == true)
        #expect(syntaxError("{} x") != nil)
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        let latin1: [UInt8] = Array("{\"name\": \"caf".utf8) + [0xE9] + Array("\"}".utf8)
        #expect(throws: JSONReader.SyntaxError.self) { try JSONReader.parse(latin1) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        do {
            _ = try JSONReader.parse(Array(deep.utf8))
            Issue.record("deep nesting was accepted")
        } catch {
            #expect(error.message.contains("nesting deeper than"))
        }
    }

    @Test func binaryGarbageIsASyntaxErrorNotACrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? JSONReader.parse(bytes)
        }
    }
}
