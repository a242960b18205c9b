import Testing
#if SHIFTRENDER_AVX512
import _Builtin_intrinsics.intel
#endif
@testable import Compositor

/// The integer steps every sampling and blending kernel shares, their vector forms against the scalar ones
/// they must equal bit for bit: `lerp` for every pair of channel values at every weight (the `vpmulhrsw`
/// form's identity, `PixelVectors.swift`), `div255` for every value a blend gives it (the `vpmulhuw` form and,
/// on AVX-512 builds, the sixteen-pixel form), `Sampling.axis`, whose weights stop at 255, and the opaque blend's
/// `vpmulhrsw` factors (`OpaqueAlphaFactors`).
@Suite("Sample arithmetic: vector forms against the scalar ones")
struct SampleArithmeticTests {
    /// 16384 pixels whose 65536 channels hold every pair `(p, q)` of channel values once: channel `c` of
    /// pixel `i` is pair `4 i + c`, `p` its low byte and `q` its high one.
    static let everyPair: (left: [UInt32], right: [UInt32]) = {
        var left = [UInt32](repeating: 0, count: 16384)
        var right = left
        for k in 0 ..< 65536 {
            left[k / 4] |= UInt32(k & 0xFF) << (8 * UInt32(k % 4))
            right[k / 4] |= UInt32(k >> 8) << (8 * UInt32(k % 4))
        }
        return (left, right)
    }()

    @Test("lerp: the eight-pixel form and blendRows (sixteen pixels a vector on AVX-512) equal the scalar one, every pair and weight")
    func lerpEveryPairEveryWeight() {
        let (left, right) = Self.everyPair
        var mismatches: [String] = []
        var rows = [UInt32](repeating: 0, count: left.count + 8)
        for weight in UInt32(0) ... 255 {
            let expected = zip(left, right).map { lerp($0, $1, weight) }
            left.withUnsafeBytes { p in
                right.withUnsafeBytes { q in
                    rows.withUnsafeMutableBytes { out in
                        Sampling.blendRows(
                            p.baseAddress!, q.baseAddress!, weight: weight, first: 0, last: left.count - 1,
                            into: out.baseAddress!, prefetching: p.baseAddress!)
                    }
                }
            }
            if let i = expected.indices.first(where: { expected[$0] != rows[$0] }) {
                mismatches.append("blendRows weight \(weight) pixel \(i)")
            }
            let w = Pixels8(repeating: weight)
            for i in stride(from: 0, to: left.count, by: 8) {
                let p = Pixels8(left[i ..< i + 8]), q = Pixels8(right[i ..< i + 8])
                let vector = lerp(p, q, w)
                if (0 ..< 8).contains(where: { vector[$0] != expected[i + $0] }) {
                    mismatches.append("eight-pixel lerp weight \(weight) pixels \(i)...")
                    break
                }
            }
        }
        let first = Array(mismatches.prefix(5))
        #expect(first.isEmpty, "\(mismatches.count) mismatches")
    }

    @Test("div255: the vector forms equal the scalar one and x / 255 rounded, for every x up to 255 x 255 + 127")
    func div255EveryValue() {
        let largest = 255 * 255 + 127
        var mismatches: [Int] = []
        for x in 0 ... largest where Int(div255(UInt32(x))) != (2 * x + 255) / 510 { mismatches.append(x) }
        for start in stride(from: 0, through: largest, by: 16) {
            let values = Channels16((0 ..< 16).map { UInt16(min(start + $0, largest)) })
            let quotients = div255(values)
            for k in 0 ..< 16 where quotients[k] != UInt16(div255(UInt32(values[k]))) { mismatches.append(Int(values[k])) }
            #if SHIFTRENDER_AVX512
            let wide = WidePixels.div255(unsafeBitCast(SIMD32<UInt16>(lowHalf: values, highHalf: values), to: Pixels16.self))
            let wideQuotients = unsafeBitCast(wide, to: SIMD32<UInt16>.self)
            for k in 0 ..< 32 where wideQuotients[k] != quotients[k % 16] { mismatches.append(Int(values[k % 16])) }
            #endif
        }
        let first = Array(mismatches.prefix(5))
        #expect(first.isEmpty, "\(mismatches.count) values differ")
    }

    /// Coordinates just below, at and just above whole texels, where the weight rounds to 256 or 0, and others.
    static let coordinates: [Float] = (0 ..< 40).flatMap { k -> [Float] in
        let whole = Float(k) * 3.25
        return [whole, whole - 0.5 / 256, whole - 0.49 / 256, whole - 0.51 / 256, whole - 1e-4, whole + 1e-4, whole + 0.7]
    }

    @Test("axis: weights 0...255; a fraction that rounds to 256 is the next texel at weight 0; the vector forms agree")
    func axisWeightsStopAt255() {
        let limit: Float = 100
        var mismatches: [String] = []
        for v in Self.coordinates {
            let (index, weight) = Sampling.axis(v, limit)
            // The same position in 256ths as the rounding of the clamped coordinate by hand.
            let clamped = Double(min(max(v, 0), limit))
            let expected = Int((clamped * 256).rounded(.toNearestOrEven))
            if weight > 255 || Int(index) * 256 + Int(weight) != expected || Int(index) > Int(limit) {
                mismatches.append("axis(\(v)) = (\(index), \(weight)), expected \(expected) / 256")
            }
        }
        for start in stride(from: 0, to: Self.coordinates.count - 7, by: 8) {
            let v = SIMD8<Float>(Self.coordinates[start ..< start + 8])
            let (indices, weights) = Sampling.axis8(v, limit)
            let (projectedIndices, projectedWeights) = ProjectedSampling.axis8(v, SIMD8(repeating: limit))
            for k in 0 ..< 8 {
                let (index, weight) = Sampling.axis(v[k], limit)
                if indices[k] != index || weights[k] != weight || projectedIndices[k] != index || projectedWeights[k] != weight {
                    mismatches.append("axis8 lane \(k) of \(v)")
                }
            }
        }
        let first = Array(mismatches.prefix(5))
        #expect(first.isEmpty, "\(mismatches.count) mismatches")
        // By hand: 2 - 0.5 / 256 is 511.5 / 256, rounded to even 512: texel 2 at weight 0, not texel 1 at 256.
        #expect(Sampling.axis(2 - 0.5 / 256, limit) == (2, 0))
        #expect(Sampling.axis(2 - 0.51 / 256, limit) == (1, 255))
    }

    @Test("Opaque blend factors: mulhrs(x, f) is x a / 255 rounded for every alpha and difference, so d + it is the blend")
    func opaqueAlphaFactors() {
        var mismatches: [String] = []
        for alpha in 0 ... 255 {
            let factor = Int(OpaqueAlphaFactors.table[alpha])
            for x in -255 ... 255 {
                // vpmulhrsw: floor((x f + 2^14) / 2^15); `>>` on a negative Int floors.
                let product = (x * factor + 16384) >> 15
                if product != Int((Double(x * alpha) / 255).rounded()) { mismatches.append("alpha \(alpha), difference \(x)") }
            }
            // What it stands for: the opaque source-over, `div255(s a + d (255 - a))`, for every source and every fifth target.
            for s in 0 ... 255 {
                for d in stride(from: 0, through: 255, by: 5) {
                    let blend = Int(div255(UInt32(s * alpha + d * (255 - alpha))))
                    if d + ((s - d) * factor + 16384) >> 15 != blend { mismatches.append("alpha \(alpha), s \(s), d \(d)") }
                }
            }
        }
        let first = Array(mismatches.prefix(5))
        #expect(first.isEmpty, "\(mismatches.count) mismatches")
        // By hand: 22 alphas need a factor other than round(a * 32768 / 255); alpha 11 is one (1413, not 1414).
        #expect(OpaqueAlphaFactors.table[11] == 1413)
    }
}
