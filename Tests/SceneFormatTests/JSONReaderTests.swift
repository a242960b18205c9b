import Testing
@testable import SceneFormat

@Suite struct JSONReaderTests {
    func syntaxError(_ text: String) -> JSONReader.SyntaxError? {
        do {
            _ = try JSONReader.parse(Array(text.utf8))
            return nil
        } catch { return error }
    }

    @Test func parsesNestedValuesKeepingKeyOrderAndPlaces() throws {
        let node = try JSONReader.parse(
            Array("{\n  \"b\": [1, 2.5e1, -0.5],\n  \"a\": {\"s\": \"x\\u00e9\\n\"}, \"t\": true, \"n\": null\n}".utf8))
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "t", "n"])
        #expect(members[0].value.line == 2 && members[0].value.column == 8)
        #expect(
            members[0].value.value
                == .array([
                    JSONNode(value: .number(1), line: 2, column: 9), JSONNode(value: .number(25), line: 2, column: 12),
                    JSONNode(value: .number(-0.5), line: 2, column: 19),
                ]))
        guard case .object(let inner) = members[1].value.value else {
            Issue.record("not an object")
            return
        }
        #expect(inner[0].value.value == .string("x\u{e9}\n"))
    }

    @Test func reportsLineAndColumnOfSyntaxErrors() {
        #expect(
            syntaxError("{\n  \"a\": 1,\n  \"b\" 2\n}")
                == JSONReader.SyntaxError(message: "unexpected '2'; expected ':' after key \"b\"", line: 3, column: 7))
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

    /// The byte offset a syntax error's line and column name (lines end at 0x0A;
    /// a byte-order mark does not count towards the first line's columns), or
    /// nil when the line does not exist in `bytes`.
    static func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var remaining = line - 1
        for (i, byte) in bytes.enumerated() where remaining > 0 && byte == 0x0A {
            start = i + 1
            remaining -= 1
        }
        return remaining == 0 && column >= 1 ? start + column - 1 : nil
    }

    /// Random bytes after prefixes that lead into each part of the reader, each
    /// input holding a 0xFF byte somewhere: 0xFF occurs nowhere in UTF-8, so no
    /// input is JSON and every one must be refused. The reader scans forward and
    /// never past a byte it cannot take, so the place it reports (line and
    /// column) lies within the input, at or before the first 0xFF, and exactly on
    /// it when the message names that byte. Seeded, so a failure replays.
    @Test func binaryGarbageIsASyntaxErrorNotACrash() {
        var generator = SeededGenerator(state: 0x5EED_6A4B_A6E0)
        let prefixes = [
            "", "{", "[", "{\"a\": ", "{\"a\": [1, ", "\"text", "\"\\u12", "-", "12.", "tru",
            "{\n  \"k\"", "[\n\n", "\u{FEFF}", "\u{FEFF}\n{\"b\": ",
        ]
        // Half the rounds draw from JSON's own punctuation and letters, so the
        // garbage gets past the first byte more often than uniform bytes would.
        let alphabet = Array(" \n{}[]:,\"\\-+.0123456789eEtrufalsn".utf8)
        var messages = Set<String>()
        var placedOnPoison = 0
        var onLaterLines = 0
        for round in 0 ..< 600 {
            var bytes = Array(prefixes[round % prefixes.count].utf8)
            let count = Int(generator.next() % 48)
            for _ in 0 ..< count {
                let r = generator.next()
                bytes.append(round % 2 == 0 ? UInt8(truncatingIfNeeded: r) : alphabet[Int(r % UInt64(alphabet.count))])
            }
            let poisonAt = bytes.count - count + Int(generator.next() % UInt64(count + 1))
            bytes.insert(0xFF, at: poisonAt)
            let firstPoison = bytes.firstIndex(of: 0xFF)!
            do {
                _ = try JSONReader.parse(bytes)
                Issue.record("accepted bytes holding 0xFF: \(bytes)")
            } catch {
                messages.insert(error.message)
                if error.line > 1 { onLaterLines += 1 }
                let place = Self.offset(line: error.line, column: error.column, in: bytes)
                #expect(error.line >= 1 && error.column >= 1 && place != nil, "\(error) for \(bytes)")
                #expect(
                    place.map { $0 <= firstPoison } == true,
                    "\(error) lies past the 0xFF at offset \(firstPoison) in \(bytes)")
                // An error about the 0xFF itself is placed exactly on it.
                if error.message.contains("byte 0xFF") {
                    #expect(place == firstPoison, "\(error) should be at offset \(firstPoison) in \(bytes)")
                    placedOnPoison += 1
                }
            }
        }
        // The inputs reach many different checks, not just the first byte's.
        #expect(messages.count >= 12, "\(messages.sorted())")
        #expect(placedOnPoison >= 50 && onLaterLines >= 50, "\(placedOnPoison) errors on the 0xFF itself, \(onLaterLines) past line 1")
    }
}
