/// A strict JSON (RFC 8259) reader producing `JSONNode`s with line and column.
///
/// Strict on purpose: trailing commas, comments, NaN/Infinity, duplicate keys
/// and invalid UTF-8 are errors, each reported with its line and column.
/// Nesting deeper than `maximumDepth` is refused, so hostile input cannot
/// exhaust the stack.
public struct JSONReader {
    public static let maximumDepth = 64
    /// The longest string, in UTF-8 bytes: a path or a label is far shorter,
    /// and a cap keeps messages that quote strings bounded.
    public static let maximumStringBytes = 16_384

    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            reader.index = 3
            reader.lineStart = 3
        }
        reader.skipWhitespace()
        guard reader.index < bytes.count else { throw reader.error("the file is empty; expected a JSON object") }
        let node = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the end of the JSON value") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, line: line, column: column)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
        guard depth <= JSONReader.maximumDepth else {
            throw error("nesting deeper than \(JSONReader.maximumDepth) levels")
        }
        guard index < bytes.count else { throw error("unexpected end of file; the JSON is truncated") }
        let startLine = line
        let startColumn = column
        let value: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            value = .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            value = .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): value = .number(try parseNumber())
        default: throw error("unexpected \(describeByte(bytes[index])); expected a JSON value")
        }
        return JSONNode(value: value, line: startLine, column: startColumn)
    }

    private mutating func expectWord(_ word: String) throws(SyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index ..< index + utf8.count]) == utf8 else {
            throw error("unexpected \(describeByte(bytes[index])); expected a JSON value")
        }
        index += utf8.count
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; the JSON is truncated") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeByte(bytes[index])); expected a key in double quotes")
            }
            let keyLine = line
            let keyColumn = column
            let key = try parseString()
            guard seen.insert(key).inserted else {
                throw SyntaxError(message: "duplicate key \"\(key)\"", line: keyLine, column: keyColumn)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; the JSON is truncated") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeByte(bytes[index])); expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; the JSON is truncated") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw error("unexpected \(describeByte(bytes[index])); expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array; the JSON is truncated") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw error("unexpected \(describeByte(bytes[index])); expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw error("unexpected end of file inside a string; the JSON is truncated") }
            if index - start > JSONReader.maximumStringBytes {
                index = start
                throw error("a string longer than \(JSONReader.maximumStringBytes) bytes")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file in an escape") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800 ... 0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00 ... 0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
            case 0x00 ..< 0x20:
                throw error("control character in a string (write it as an escape)")
            case 0x00 ..< 0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try parseUTF8Scalar())
            }
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// Decodes one multi-byte UTF-8 sequence, refusing overlong forms and surrogates.
    private mutating func parseUTF8Scalar() throws(SyntaxError) -> Unicode.Scalar {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var code: UInt32
        switch lead {
        case 0xC2 ... 0xDF:
            length = 2
            code = UInt32(lead & 0x1F)
            minimum = 0x80
        case 0xE0 ... 0xEF:
            length = 3
            code = UInt32(lead & 0x0F)
            minimum = 0x800
        case 0xF0 ... 0xF4:
            length = 4
            code = UInt32(lead & 0x07)
            minimum = 0x10000
        default: throw error("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true))); scene files must be UTF-8")
        }
        guard index + length <= bytes.count else { throw error("invalid UTF-8: truncated sequence") }
        for k in 1 ..< length {
            let b = bytes[index + k]
            guard b & 0xC0 == 0x80 else { throw error("invalid UTF-8 continuation byte; scene files must be UTF-8") }
            code = (code << 6) | UInt32(b & 0x3F)
        }
        guard code >= minimum, let scalar = Unicode.Scalar(code) else { throw error("invalid UTF-8 sequence; scene files must be UTF-8") }
        index += length
        return scalar
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start ..< index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return value
    }
}
