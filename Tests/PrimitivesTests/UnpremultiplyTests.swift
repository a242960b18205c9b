import Testing
import Primitives

@Suite("Unpremultiply")
struct UnpremultiplyTests {
    /// Every premultiplied (c, a) pair, then colour above alpha (malformed input that clamps).
    static let allPairs: [UInt8] = {
        var bytes: [UInt8] = []
        for a in 0 ... 255 {
            for c in 0 ... a { bytes += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)] }
        }
        return bytes + [200, 10, 255, 100, 9, 9, 9, 0]
    }()

    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { d in Unpremultiply.referenceRow(s.baseAddress!, into: d.baseAddress!, count: bytes.count / 4) }
        }
        return out
    }

    @Test("The SIMD form equals the scalar reference for every premultiplied (c, a) and for malformed input")
    func exhaustive() {
        let bytes = Self.allPairs
        let bitmap = Bitmap(width: bytes.count / 4, height: 1, premultipliedPixels: bytes)!
        #expect(bitmap.unpremultipliedPixels() == Self.reference(bytes))
        // Every tail length goes through the scalar loop as well as the vector one.
        for k in [1, 7, 8, 9, 15, 16, 17] {
            let part = Array(bytes[400 ..< 400 + k * 4])
            let small = Bitmap(width: k, height: 1, premultipliedPixels: part)!
            #expect(small.unpremultipliedPixels() == Self.reference(part), "tail of \(k)")
        }
    }

    @Test("The reference works the formula: round(c * 255 / a), 0 where a = 0, opaque pixels unchanged")
    func handWorked() {
        // c = 64, a = 128: 64 * 255 / 128 = 127.5, ties up -> 128. c = 1, a = 3: 85. a = 0 -> 0.
        let input: [UInt8] = [64, 1, 0, 128, 1, 2, 3, 3, 9, 9, 9, 0, 10, 20, 30, 255]
        let expected: [UInt8] = [128, 2, 0, 128, 85, 170, 255, 3, 0, 0, 0, 0, 10, 20, 30, 255]
        #expect(Self.reference(input) == expected)
        #expect(Bitmap(width: 4, height: 1, premultipliedPixels: input)!.unpremultipliedPixels() == expected)
    }

    @Test("In place: the source may be the destination")
    func inPlace() {
        var bytes = Self.allPairs
        let expected = Self.reference(bytes)
        bytes.withUnsafeMutableBytes { b in Unpremultiply.row(b.baseAddress!, into: b.baseAddress!, count: b.count / 4) }
        #expect(bytes == expected)
    }
}
