import Testing
import Primitives
@testable import Compositor

/// The SIMD blend kernels' vector paths against their scalar references, bit
/// for bit as `BlendKernels` requires: the constant-alpha kernels at every
/// alpha 0...255 (the store at 255 and the early return at 0 included;
/// `sourceOverConstant` with and without its prefetch hint), the fused
/// sampling blend `Sampling.horizontalOver`, and the per-pixel-alpha kernels'
/// whole-vector shortcuts (a run of eight 255s stores, of eight 0s skips),
/// which random per-pixel alpha (`PaintAndBlendTests`) almost never hits.
///
/// Lengths cover no pixel, tails alone (1, 7), whole vectors (8, 16, 24, 64) and
/// both (9, 17, 31, 47, 67): on AVX-512 builds the kernels' sixteen-pixel loops,
/// then an eight-pixel one, then the tail (`WidePixelVectors`). Every run starts one pixel into its buffers (unaligned)
/// and has `spare` pixels after it that no kernel may touch: whole buffers are
/// compared, so a vector store past `count` shows as a difference.
@Suite("Blend kernels: vector paths against the scalar references")
struct BlendKernelVectorTests {
    static let lengths = [0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 47, 64, 67]
    static let lead = 1, spare = 9

    /// Source rows: premultiplied pixels of one character each, so every
    /// vector path is taken (`opaque` stores at alpha 255; `opaqueButOne` has
    /// one translucent pixel in each group of eight and must blend).
    enum Source: CaseIterable, CustomTestStringConvertible {
        case mixed, opaque, opaqueButOne, translucent, clear
        var testDescription: String { "\(self)" }
    }

    static func pixel(_ source: Source, index: Int, using rng: inout SeededGenerator) -> [UInt8] {
        let a: UInt8
        switch source {
        case .mixed: a = [0, 255, .random(in: 0 ... 255, using: &rng)][Int.random(in: 0 ..< 3, using: &rng)]
        case .opaque: a = 255
        case .opaqueButOne: a = index % 8 == 5 ? .random(in: 0 ... 254, using: &rng) : 255
        case .translucent: a = .random(in: 1 ... 254, using: &rng)
        case .clear: a = 0
        }
        return (0 ..< 3).map { _ in UInt8.random(in: 0 ... a, using: &rng) } + [a]
    }

    static func pixels(_ source: Source, count: Int, using rng: inout SeededGenerator) -> [UInt8] {
        (0 ..< count).flatMap { pixel(source, index: $0, using: &rng) }
    }

    /// Where two buffers first differ, as a pixel index, for the failure message.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / 4 }
    }

    /// Runs `kernel` and `reference` on copies of `destination` and records the case when they differ.
    static func compare(
        _ destination: [UInt8], _ label: @autoclosure () -> String, mismatches: inout [String],
        kernel: (UnsafeMutablePointer<UInt8>) -> Void, reference: (UnsafeMutablePointer<UInt8>) -> Void
    )
        -> [UInt8]
    {
        var simd = destination
        var scalar = destination
        simd.withUnsafeMutableBufferPointer { kernel($0.baseAddress! + 4 * lead) }
        scalar.withUnsafeMutableBufferPointer { reference($0.baseAddress! + 4 * lead) }
        if let at = firstDifference(simd, scalar) { mismatches.append("\(label()): first differs at pixel \(at - lead)") }
        return simd
    }

    @Test("sourceOverConstant equals sourceOverConstantReference for every alpha and length", arguments: Source.allCases)
    func sourceOverConstant(source: Source) {
        var rng = SeededGenerator(seed: 0xB1E4D_0001 &+ UInt64(Source.allCases.firstIndex(of: source)!))
        var mismatches: [String] = []
        var storesChecked = 0
        for count in Self.lengths {
            let total = Self.lead + count + Self.spare
            let src = Self.pixels(source, count: total, using: &rng)
            let dst = Self.pixels(.mixed, count: total, using: &rng)
            for alpha in UInt8(0) ... 255 {
                let out = src.withUnsafeBufferPointer { s in
                    Self.compare(dst, "alpha \(alpha), count \(count)", mismatches: &mismatches) {
                        BlendKernels.sourceOverConstant(dst: $0, src: s.baseAddress! + 4 * Self.lead, alpha: alpha, count: count)
                    } reference: {
                        BlendKernels.sourceOverConstantReference(
                            dst: $0, src: s.baseAddress! + 4 * Self.lead, alpha: alpha,
                            count: count)
                    }
                }
                // The same with the prefetch hint (a group layer's composite): it reads nothing.
                _ = src.withUnsafeBufferPointer { s in
                    Self.compare(dst, "alpha \(alpha), count \(count), prefetching", mismatches: &mismatches) {
                        BlendKernels.sourceOverConstant(
                            dst: $0, src: s.baseAddress! + 4 * Self.lead, alpha: alpha, count: count,
                            prefetching: (UnsafePointer($0) + 4 * Self.spare, s.baseAddress!))
                    } reference: {
                        BlendKernels.sourceOverConstantReference(
                            dst: $0, src: s.baseAddress! + 4 * Self.lead, alpha: alpha, count: count)
                    }
                }
                // The consequences the module states: alpha 0 leaves dst alone; an
                // opaque source at 255 is written exactly.
                if alpha == 0 { #expect(out == dst, "count \(count)") }
                if alpha == 255 && source == .opaque {
                    let run = 4 * Self.lead ..< 4 * (Self.lead + count)
                    #expect(out[run] == src[run] && out[run.upperBound...] == dst[run.upperBound...], "count \(count)")
                    storesChecked += 1
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
        #expect(source != .opaque || storesChecked == Self.lengths.count)
    }

    /// Colours: opaque (the fill path at alpha 255), translucent, clear, and a random premultiplied one.
    static func colours(using rng: inout SeededGenerator) -> [SIMD4<UInt8>] {
        [Source.opaque, .translucent, .clear, .mixed].map { source in
            let p = pixel(source, index: 0, using: &rng)
            return SIMD4(p[0], p[1], p[2], p[3])
        }
    }

    /// The kernel leaves vectors that already are an opaque colour alone; the formula does too, at every alpha.
    @Test("sourceOverSolidConstant of an opaque colour over pixels mostly of that colour equals the reference")
    func sourceOverSolidConstantOverItsOwnColour() {
        var rng = SeededGenerator(seed: 0xB1E4D_0200)
        var mismatches: [String] = []
        for count in Self.lengths {
            let total = Self.lead + count + Self.spare
            let other = Self.pixels(.mixed, count: total, using: &rng)
            for colour in [SIMD4<UInt8>(255, 255, 255, 255), SIMD4(18, 200, 77, 255)] {
                // The colour everywhere but a few pixels (some vectors uniform, some with one pixel off).
                var dst = [UInt8](repeating: 0, count: 4 * total)
                for i in 0 ..< total {
                    let keep = i % 13 == 5 || i % 29 == 0
                    for c in 0 ..< 4 { dst[4 * i + c] = keep ? other[4 * i + c] : colour[c] }
                }
                for alpha in UInt8(0) ... 255 {
                    _ = Self.compare(dst, "alpha \(alpha), colour \(colour), count \(count)", mismatches: &mismatches) {
                        BlendKernels.sourceOverSolidConstant(dst: $0, color: colour, alpha: alpha, count: count)
                    } reference: {
                        BlendKernels.sourceOverSolidConstantReference(dst: $0, color: colour, alpha: alpha, count: count)
                    }
                }
                var same = [UInt8](repeating: 0, count: 4 * 16)
                for i in 0 ..< 16 { for c in 0 ..< 4 { same[4 * i + c] = colour[c] } }
                for alpha in UInt8(1) ... 254 {
                    var out = same
                    BlendKernels.sourceOverSolidConstantReference(dst: &out, color: colour, alpha: alpha, count: 16)
                    if out != same { mismatches.append("the formula changed colour \(colour) at alpha \(alpha)") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
    }

    /// With and without the prefetch hint: with it, an opaque fill stores through a loop of its own.
    @Test(
        "sourceOverSolidConstant equals sourceOverSolidConstantReference for every alpha, colour and length",
        arguments: [false, true])
    func sourceOverSolidConstant(prefetching: Bool) {
        var rng = SeededGenerator(seed: 0xB1E4D_0100)
        var mismatches: [String] = []
        var fillsChecked = 0
        for count in Self.lengths {
            let total = Self.lead + count + Self.spare
            let colours = Self.colours(using: &rng)
            let dst = Self.pixels(.mixed, count: total, using: &rng)
            for alpha in UInt8(0) ... 255 {
                for colour in colours {
                    let out = Self.compare(dst, "alpha \(alpha), colour \(colour), count \(count)", mismatches: &mismatches) {
                        BlendKernels.sourceOverSolidConstant(
                            dst: $0, color: colour, alpha: alpha, count: count,
                            prefetching: prefetching ? UnsafePointer($0) : nil)
                    } reference: {
                        BlendKernels.sourceOverSolidConstantReference(dst: $0, color: colour, alpha: alpha, count: count)
                    }
                    if alpha == 0 { #expect(out == dst) }
                    if alpha == 255 && colour.w == 255 {
                        let filled = (0 ..< count).allSatisfy { i in (0 ..< 4).allSatisfy { out[4 * (Self.lead + i) + $0] == colour[$0] } }
                        #expect(filled && out[(4 * (Self.lead + count))...] == dst[(4 * (Self.lead + count))...], "count \(count)")
                        fillsChecked += 1
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
        #expect(fillsChecked >= Self.lengths.count)
    }

    /// The plain form of `horizontalOver`: per pixel and channel
    /// `(p * (256 - w) + q * w + 128) >> 8` of the texel at `offsets[i]` and the
    /// one after it, then `sourceOverConstantReference` of those samples.
    static func horizontalOverReference(
        _ row: [UInt8], offsets: [Int32], weights: [UInt32], count: Int,
        dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, backing: UInt32? = nil
    ) {
        var samples = [UInt8](repeating: 0, count: max(count, 1) * 4)
        for i in 0 ..< count {
            let o = Int(offsets[i])
            let w = Int(weights[i])
            for c in 0 ..< 4 {
                samples[4 * i + c] = UInt8((Int(row[o + c]) * (256 - w) + Int(row[o + 4 + c]) * w + 128) >> 8)
            }
        }
        if let backing {
            let plain = samples
            BlendKernels.overColorReference(plain, color: backing, count: count, into: &samples)
        }
        BlendKernels.sourceOverConstantReference(dst: dst, src: samples, alpha: alpha, count: count)
    }

    @Test(
        "Sampling.horizontalOver equals its plain reference for every alpha and length, storing or blending, over a backing colour or not",
        arguments: [
            (Source.mixed, false, false), (.opaque, false, false), (.opaque, true, false), (.mixed, false, true),
            (.mixed, true, true),
        ])
    func horizontalOver(texels source: Source, opaqueSource: Bool, backed: Bool) {
        var rng = SeededGenerator(seed: 0xB1E4D_0200 &+ (source == .opaque ? 1 : 0) &+ (backed ? 2 : 0))
        // An opaque colour with distinct channels (premultiplied: any channels under an alpha of 255).
        let backing: UInt32? = backed ? 0xFF30_A0D7 : nil
        var mismatches: [String] = []
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * (Self.lengths.max()! + 8))
        defer { scratch.deallocate() }
        for (round, count) in Self.lengths.enumerated() {
            // A column table as `prepareColumns` makes them (monotone, either way), stepping up to
            // three texels a pixel, so every path of `TexelWindows` runs. One entry more than
            // `count`, so even an empty run has a table to point at.
            let offsets = TexelWindowsTests.monotoneOffsets(
                count: count + 1, maxStep: round % 4, descending: round % 3 == 1, using: &rng)
            let texels = Int(offsets.max()! / 4) + 2 + TexelWindows.slackTexels
            let row = Self.pixels(source, count: texels, using: &rng)
            // Weights 0 and 255, the ends of the range `Sampling.axis` gives, among them.
            let weights = (0 ... count).map { _ -> UInt32 in
                [0, 255, .random(in: 0 ... 255, using: &rng)][Int.random(in: 0 ..< 3, using: &rng)]
            }
            let dst = Self.pixels(.mixed, count: Self.lead + count + Self.spare, using: &rng)
            // The weights doubled and the windows, as `BitmapSampler`'s column table keeps them.
            let doubledWeights = weights.map { $0 | $0 << 16 }
            var windows = [TexelWindows.Window](repeating: .stitched, count: count + 1)
            offsets.withUnsafeBufferPointer { TexelWindows.describe($0.baseAddress!, count: count, into: &windows) }
            // And the sixteen-column ones on builds that have them (the sixteen-pixel loop takes them where they
            // have a form, the eight-column ones elsewhere); other builds pass none.
            var wideWindows = [TexelWindows.WideWindow](repeating: .init(start: 0, form: 2, lanes: .zero), count: count + 1)
            #if SHIFTRENDER_AVX512
            offsets.withUnsafeBufferPointer { TexelWindows.describeWide($0.baseAddress!, count: count, into: &wideWindows) }
            #endif
            for alpha in UInt8(0) ... 255 {
                _ = row.withUnsafeBytes { r in
                    offsets.withUnsafeBufferPointer { o in
                        doubledWeights.withUnsafeBufferPointer { w in
                            Self.compare(dst, "alpha \(alpha), count \(count)", mismatches: &mismatches) {
                                Sampling.horizontalOver(
                                    r.baseAddress!, offsets: o.baseAddress!, windows: windows, wideWindows: wideWindows,
                                    weights: w.baseAddress!,
                                    count: count, dst: $0, alpha: alpha, opaqueSource: opaqueSource, backing: backing,
                                    scratch: scratch)
                            } reference: {
                                Self.horizontalOverReference(
                                    row, offsets: offsets, weights: weights, count: count, dst: $0, alpha: alpha, backing: backing)
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
    }

    @Test("overColor equals overColorReference for every source and length, in place or not", arguments: Source.allCases)
    func overColor(source: Source) {
        var rng = SeededGenerator(seed: 0x0C0_1002)
        var mismatches: [String] = []
        for count in Self.lengths {
            let src = Self.pixels(source, count: Self.lead + count + Self.spare, using: &rng)
            for color: UInt32 in [0xFF00_0000, 0xFFFF_FFFF, 0xFF12_80F3] {
                // Into another buffer (whose spare pixels must survive), then in place.
                let out = Self.pixels(.mixed, count: Self.lead + count + Self.spare, using: &rng)
                _ = src.withUnsafeBufferPointer { s in
                    Self.compare(out, "\(count) pixels over \(color)", mismatches: &mismatches) {
                        BlendKernels.overColor(s.baseAddress! + 4 * Self.lead, color: color, count: count, into: $0)
                    } reference: {
                        BlendKernels.overColorReference(s.baseAddress! + 4 * Self.lead, color: color, count: count, into: $0)
                    }
                }
                _ = Self.compare(src, "\(count) pixels over \(color) in place", mismatches: &mismatches) {
                    BlendKernels.overColor($0, color: color, count: count, into: $0)
                } reference: {
                    BlendKernels.overColorReference($0, color: color, count: count, into: $0)
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
    }

    /// Coverage masks as shapes make them: runs of 255 (interior: the store /
    /// full blend shortcut), runs of 0 (outside: skipped) and edges, aligned
    /// with the eight-pixel groups and shifted across them (a group half
    /// outside, half inside); plus every constant value 0...255 across a row.
    static func masks(count: Int, using rng: inout SeededGenerator) -> [[UInt8]] {
        let runs = [0, 3, 5].map { shift in
            (0 ..< count).map { i -> UInt8 in
                switch ((i + shift) / 8) % 3 {
                case 0: 255
                case 1: 0
                default: .random(in: 0 ... 255, using: &rng)
                }
            }
        }
        return runs + (0 ... 255).map { [UInt8](repeating: UInt8($0), count: count) }
    }

    @Test("sourceOver equals sourceOverReference on run-shaped and constant masks", arguments: Source.allCases)
    func sourceOverShortcuts(source: Source) {
        var rng = SeededGenerator(seed: 0xB1E4D_0300 &+ UInt64(Source.allCases.firstIndex(of: source)!))
        var mismatches: [String] = []
        for count in Self.lengths {
            let total = Self.lead + count + Self.spare
            for (m, mask) in Self.masks(count: count + Self.spare, using: &rng).enumerated() {
                let alpha = [UInt8](repeating: 0, count: Self.lead) + mask
                let src = Self.pixels(source, count: total, using: &rng)
                let dst = Self.pixels(.mixed, count: total, using: &rng)
                src.withUnsafeBufferPointer { s in
                    alpha.withUnsafeBufferPointer { a in
                        _ = Self.compare(dst, "mask \(m), count \(count)", mismatches: &mismatches) {
                            BlendKernels.sourceOver(
                                dst: $0, src: s.baseAddress! + 4 * Self.lead, alpha: a.baseAddress! + Self.lead,
                                count: count)
                        } reference: {
                            BlendKernels.sourceOverReference(
                                dst: $0, src: s.baseAddress! + 4 * Self.lead,
                                alpha: a.baseAddress! + Self.lead, count: count)
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
    }

    /// Byte for byte, with and without the prefetch hint (every other mask);
    /// groups of eight zero alphas under a translucent colour are counted apart,
    /// as an earlier version stored the colour over them (its store test came
    /// before the zero test) where the reference leaves those pixels alone.
    @Test("sourceOverSolid equals sourceOverSolidReference on run-shaped and constant masks")
    func sourceOverSolidShortcuts() {
        var rng = SeededGenerator(seed: 0xB1E4D_0400)
        var mismatches: [String] = []
        var overwrittenZeroRuns = 0
        for count in Self.lengths {
            let total = Self.lead + count + Self.spare
            for (m, mask) in Self.masks(count: count + Self.spare, using: &rng).enumerated() {
                let alpha = [UInt8](repeating: 0, count: Self.lead) + mask
                for colour in Self.colours(using: &rng) {
                    let dst = Self.pixels(.mixed, count: total, using: &rng)
                    var simd = dst
                    var scalar = dst
                    alpha.withUnsafeBufferPointer { a in
                        simd.withUnsafeMutableBufferPointer {
                            BlendKernels.sourceOverSolid(
                                dst: $0.baseAddress! + 4 * Self.lead, color: colour,
                                alpha: a.baseAddress! + Self.lead, count: count,
                                prefetching: m % 2 == 1 ? UnsafePointer($0.baseAddress!) : nil)
                        }
                        scalar.withUnsafeMutableBufferPointer {
                            BlendKernels.sourceOverSolidReference(
                                dst: $0.baseAddress! + 4 * Self.lead, color: colour,
                                alpha: a.baseAddress! + Self.lead, count: count)
                        }
                    }
                    if colour.w != 255 {
                        for g in stride(from: 0, to: count - 7, by: 8) where mask[g ..< g + 8].allSatisfy({ $0 == 0 }) {
                            let bytes = 4 * (Self.lead + g) ..< 4 * (Self.lead + g + 8)
                            if simd[bytes] != scalar[bytes] {
                                simd[bytes] = scalar[bytes]
                                overwrittenZeroRuns += 1
                            }
                        }
                    }
                    if let at = Self.firstDifference(simd, scalar) {
                        mismatches.append("mask \(m), colour \(colour), count \(count): first differs at pixel \(at - Self.lead)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
        #expect(overwrittenZeroRuns == 0, "\(overwrittenZeroRuns) groups of eight zero-coverage pixels were overwritten")
    }

    @Test("blendRows equals the scalar lerp of each texel for every length and weight, and stays within first ... last")
    func blendRowsAgainstScalarLerp() {
        var rng = SeededGenerator(seed: 0xB1E4D_0600)
        let width = Self.lengths.max()! + 2 * Self.spare
        let r0 = Self.pixels(.mixed, count: width, using: &rng)
        let r1 = Self.pixels(.mixed, count: width, using: &rng)
        let untouched = Self.pixels(.mixed, count: width, using: &rng)
        var mismatches: [String] = []
        for count in Self.lengths where count > 0 {
            for weight in [0, 1, 128, 255, UInt32.random(in: 2 ... 254, using: &rng)] as [UInt32] {
                let first = Self.lead
                let last = first + count - 1
                var out = untouched
                r0.withUnsafeBytes { a in
                    r1.withUnsafeBytes { b in
                        out.withUnsafeMutableBytes { o in
                            Sampling.blendRows(
                                a.baseAddress!, b.baseAddress!, weight: weight, first: first, last: last,
                                into: o.baseAddress!, prefetching: a.baseAddress!)
                        }
                    }
                }
                var expected = untouched
                for c in first ... last {
                    let word = lerp(Self.word(r0, c), Self.word(r1, c), weight)
                    withUnsafeBytes(of: word.littleEndian) { expected[4 * c ..< 4 * c + 4] = ArraySlice($0) }
                }
                if let at = Self.firstDifference(out, expected) { mismatches.append("count \(count), weight \(weight): pixel \(at)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ, e.g. \(mismatches.prefix(5))")
    }

    static func word(_ pixels: [UInt8], _ index: Int) -> UInt32 {
        (0 ..< 4).reduce(0) { $0 | UInt32(pixels[4 * index + $1]) << (8 * UInt32($1)) }
    }

    @Test("byteLanes (one vpmovzxbd with AVX2) equals its scalar form at every offset")
    func byteLanesForms() {
        var rng = SeededGenerator(seed: 0xB1E4D_0500)
        let bytes = (0 ..< 4096 + 8).map { $0 < 256 ? UInt8($0) : UInt8.random(in: 0 ... 255, using: &rng) }
        let differing = bytes.withUnsafeBufferPointer { b in
            (0 ..< 4096).filter { byteLanes(b.baseAddress! + $0) != portableByteLanes(b.baseAddress! + $0) }
        }
        #expect(differing.isEmpty, "byteLanes differs at offsets \(differing.prefix(5))")
    }
}
