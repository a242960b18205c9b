import Testing
import Foundation
import Primitives
@testable import Compositor

@Suite("Texel windows")
struct TexelWindowsTests {
    /// `count` byte offsets of texels, monotone (each step 0 ... `maxStep` texels), from texel 0 or to it.
    static func monotoneOffsets(count: Int, maxStep: Int, descending: Bool, using rng: inout SeededGenerator) -> [Int32] {
        var texel = 0
        var texels = [Int]()
        for _ in 0 ..< count {
            texels.append(texel)
            texel += Int.random(in: 0 ... maxStep, using: &rng)
        }
        if descending { texels = texels.map { texels.last! - $0 } }
        return texels.map { Int32(4 * $0) }
    }

    @Test("Windowed texel pairs equal the stitched ones for monotone offsets of every span, rising or falling")
    func windowsMatchStitchedPairs() {
        var rng = SeededGenerator(seed: 0x7E8_3107)
        var windowed = 0
        var stitchedOnly = 0
        var mismatches: [String] = []
        for trial in 0 ..< 4000 {
            let maxStep = [0, 1, 2, 3, 5][trial % 5]
            let offsets = Self.monotoneOffsets(count: 8, maxStep: maxStep, descending: trial % 2 == 1, using: &rng)
            let lead = Int.random(in: 0 ... 9, using: &rng)
            let shifted = offsets.map { $0 + Int32(4 * lead) }
            // Exactly as long as the contract asks: the last pair, then the slack.
            let texels = Int(shifted.max()! / 4) + 2 + TexelWindows.slackTexels
            let row = (0 ..< texels).map { _ in UInt32.random(in: 0 ... .max, using: &rng) }
            row.withUnsafeBytes { r in
                shifted.withUnsafeBufferPointer { o in
                    let expected = TexelWindows.stitched(r.baseAddress!, o.baseAddress!)
                    let span = abs(Int(offsets[7] - offsets[0])) / 4
                    guard let got = TexelWindows.permuted(r.baseAddress!, o.baseAddress!) else {
                        stitchedOnly += 1
                        if TexelWindows.isWindowed && span <= 15 { mismatches.append("no windows for span \(span)") }
                        return
                    }
                    windowed += 1
                    if got.left != expected.left || got.right != expected.right {
                        mismatches.append("span \(span): \(got) against \(expected)")
                    }
                    let both = TexelWindows.pairs(r.baseAddress!, o.baseAddress!)
                    if both.left != got.left || both.right != got.right { mismatches.append("pairs differs from permuted") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases, e.g. \(mismatches.prefix(3))")
        if TexelWindows.isWindowed {
            // Spans 0 ... 35: the one-window and two-window forms and the fallback all ran.
            #expect(windowed > 2500 && stitchedOnly > 100, "\(windowed) windowed, \(stitchedOnly) stitched")
        } else {
            #expect(windowed == 0)
        }
    }

    @Test("Windows kept for a column table give every eight columns the stitched pairs, worked out or stitched only")
    func keptWindowsMatchStitchedPairs() {
        var rng = SeededGenerator(seed: 0x7E8_3108)
        var forms = [0, 0, 0]
        var mismatches: [String] = []
        for trial in 0 ..< 200 {
            let count = Int.random(in: 0 ... 70, using: &rng)
            let offsets = Self.monotoneOffsets(
                count: count, maxStep: [0, 1, 2, 3][trial % 4], descending: trial % 3 == 1, using: &rng)
            let texels = Int(offsets.max() ?? 0) / 4 + 2 + TexelWindows.slackTexels
            let row = (0 ..< texels).map { _ in UInt32.random(in: 0 ... .max, using: &rng) }
            for stitchedOnly in [false, true] {
                // Entries past `count - 8` must stay untouched: a sentinel form shows a write.
                var windows = [TexelWindows.Window](repeating: .init(start: -1, form: 9, lanes: 0), count: count + 1)
                offsets.withUnsafeBufferPointer { o in
                    TexelWindows.describe(o.baseAddress!, count: count, into: &windows, stitchedOnly: stitchedOnly)
                }
                if windows[max(0, count - 7)...].contains(where: { $0.form != 9 }) { mismatches.append("wrote past \(count - 8)") }
                row.withUnsafeBytes { r in
                    offsets.withUnsafeBufferPointer { o in
                        var i = 0
                        while i + 8 <= count {
                            let expected = TexelWindows.stitched(r.baseAddress!, o.baseAddress! + i)
                            let got = TexelWindows.pairs(r.baseAddress!, o.baseAddress! + i, windows[i])
                            if got.left != expected.left || got.right != expected.right {
                                mismatches.append("count \(count), column \(i), form \(windows[i].form)")
                            }
                            forms[Int(windows[i].form)] += 1
                            // The table's windows (narrowed in vectors on AVX-512 builds) are the one-column form's.
                            let one = stitchedOnly ? .stitched : TexelWindows.describe(o.baseAddress! + i)
                            if (one.start, one.form, one.lanes) != (windows[i].start, windows[i].form, windows[i].lanes) {
                                mismatches.append("count \(count), column \(i): table window differs from describe's")
                            }
                            i += 1
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases, e.g. \(mismatches.prefix(3))")
        // Steps of up to three texels: one window, two and the stitched form all ran where the build has windows.
        #expect(forms[2] > 1000)
        #expect(TexelWindows.isWindowed ? forms[0] > 500 && forms[1] > 500 : forms[0] + forms[1] == 0, "\(forms)")
    }

    #if SHIFTRENDER_AVX512
    @Test("Sixteen-column windows give every sixteen columns the stitched pairs, in one window, two or none")
    func wideWindowsMatchStitchedPairs() {
        var rng = SeededGenerator(seed: 0x7E8_3116)
        var forms = [0, 0, 0]
        var mismatches: [String] = []
        for trial in 0 ..< 300 {
            let count = Int.random(in: 0 ... 90, using: &rng)
            // Steps of up to five texels: spans of 0 to 75 over sixteen columns, so every form.
            let offsets = Self.monotoneOffsets(
                count: count, maxStep: [0, 1, 2, 3, 5][trial % 5], descending: trial % 3 == 1, using: &rng)
            // Exactly as long as the contract asks: the last pair, then the slack.
            let texels = Int(offsets.max() ?? 0) / 4 + 2 + TexelWindows.slackTexels
            let row = (0 ..< texels).map { _ in UInt32.random(in: 0 ... .max, using: &rng) }
            // Entries past `count - 16` must stay untouched: a sentinel form shows a write.
            let sentinel = TexelWindows.WideWindow(start: -1, form: 9, lanes: .zero)
            var windows = [TexelWindows.WideWindow](repeating: sentinel, count: count + 1)
            offsets.withUnsafeBufferPointer { o in TexelWindows.describeWide(o.baseAddress!, count: count, into: &windows) }
            if windows[max(0, count - 15)...].contains(where: { $0.form != 9 }) { mismatches.append("wrote past \(count - 16)") }
            row.withUnsafeBytes { r in
                offsets.withUnsafeBufferPointer { o in
                    var i = 0
                    while i + 16 <= count {
                        defer { i += 1 }
                        let form = Int(windows[i].form)
                        forms[min(form, 2)] += 1
                        let span = abs(Int(offsets[i + 15] - offsets[i])) / 4
                        let expectedForm = span <= 15 ? 0 : span <= 31 ? 1 : 2
                        if form != expectedForm { mismatches.append("span \(span) given form \(form)") }
                        guard let got = TexelWindows.windowedWide(r.baseAddress!, windows[i]) else { continue }
                        let low = TexelWindows.stitched(r.baseAddress!, o.baseAddress! + i)
                        let high = TexelWindows.stitched(r.baseAddress!, o.baseAddress! + i + 8)
                        let left = unsafeBitCast(got.left, to: SIMD16<UInt32>.self)
                        let right = unsafeBitCast(got.right, to: SIMD16<UInt32>.self)
                        if left != SIMD16(lowHalf: low.left, highHalf: high.left)
                            || right != SIMD16(lowHalf: low.right, highHalf: high.right) {
                            mismatches.append("count \(count), column \(i), span \(span)")
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) cases, e.g. \(mismatches.prefix(3))")
        #expect(forms.allSatisfy { $0 > 300 }, "\(forms)")
    }
    #endif

    @Test("Column tables are monotone for any scale, flip and offset, so the windows' contract holds")
    func columnTablesAreMonotone() {
        var rng = SeededGenerator(seed: 0xC01_0301)
        var tables = 0
        for _ in 0 ..< 300 {
            let w = Int.random(in: 1 ... 300, using: &rng)
            let sx = Double.random(in: 0.3 ... 4, using: &rng) * (Bool.random(using: &rng) ? -1 : 1)
            let t = AffineTransform2D.scale(sx, 1).concatenating(.translation(Double.random(in: -400 ... 400, using: &rng), 0))
            guard let m = TexelMapping(transform: t, rect: Rect(x: 0, y: 0, width: Double(w), height: 8), sourceWidth: w, sourceHeight: 8)
            else { continue }
            let count = 256
            var offsets = [Int32](repeating: 0, count: count)
            var weights = [UInt32](repeating: 0, count: count)
            Sampling.prepareColumns(m, x0: -64, count: count, offsets: &offsets, weights: &weights)
            let rising = zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
            let falling = zip(offsets, offsets.dropFirst()).allSatisfy { $0 >= $1 }
            #expect(rising || falling, "scale \(sx), width \(w)")
            #expect(offsets.allSatisfy { $0 >= 0 && $0 <= Int32(4 * (w - 1)) })
            tables += 1
        }
        #expect(tables > 250)
    }

    @Test("The compositor is built with its AVX2 texel windows exactly when the build host has AVX2")
    func windowedWhereTheHostHasAVX2() throws {
        #if arch(x86_64) && os(Linux)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set((cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") } ?? "").split(separator: " ").map(String.init))
        let haswell = ["avx2", "fma", "bmi2", "movbe", "f16c"].allSatisfy(flags.contains)
        let portable = ProcessInfo.processInfo.environment["SHIFTRENDER_PORTABLE"] != nil
        #expect(TexelWindows.isWindowed == (haswell && !portable))
        #else
        #expect(!TexelWindows.isWindowed)
        #endif
    }
}
