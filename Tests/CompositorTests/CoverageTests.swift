import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Coverage and geometry")
struct CoverageTests {
    @Test("An opaque axis-aligned rect on integer pixels is exact; outside is untouched")
    func opaqueRectIsExact() {
        let blue = RGBAColor(red: 0, green: 0, blue: 1)
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let b = draw([solidItem(rect(10, 5, 20, 15), red)], width: 40, height: 30, background: blue)
        for y in 0 ..< 30 {
            for x in 0 ..< 40 {
                let p = b.pixel(x: x, y: y)
                let inside = (10 ..< 30).contains(x) && (5 ..< 20).contains(y)
                if inside { #expect(p == (255, 0, 0, 255), "(\(x), \(y))") } else { #expect(p == (0, 0, 255, 255), "(\(x), \(y))") }
            }
        }
    }

    @Test("A scaled and translated rect on integer pixels is exact too")
    func scaledRectIsExact() {
        // Local 0...5 x 0...2, scaled by 4 and 3, then moved by (8, 6): pixels 8..<28 x 6..<12.
        let t = AffineTransform2D.scale(4, 3).concatenating(.translation(8, 6))
        let b = draw([solidItem(rect(0, 0, 5, 2), .white, transform: t)], width: 32, height: 16)
        for y in 0 ..< 16 {
            for x in 0 ..< 32 {
                let inside = (8 ..< 28).contains(x) && (6 ..< 12).contains(y)
                #expect(b.pixel(x: x, y: y).a == (inside ? 255 : 0), "(\(x), \(y))")
            }
        }
    }

    @Test("An edge at x = 10.5 covers half of pixel 10")
    func halfPixelEdge() {
        let b = draw([solidItem(rect(10.5, 0, 9.5, 4), .white)], width: 24, height: 4)
        #expect(b.pixel(x: 9, y: 1).a == 0)
        #expect(abs(Int(b.pixel(x: 10, y: 1).a) - 128) <= 1)
        #expect(b.pixel(x: 11, y: 1) == (255, 255, 255, 255))
        #expect(b.pixel(x: 19, y: 1).a == 255)
        #expect(b.pixel(x: 20, y: 1).a == 0)
    }

    @Test("Fractional axis-aligned rects get exact box-area coverage")
    func fractionalRectArea() {
        // A quarter-pixel-wide line inside one pixel, and a rect with all four edges fractional.
        let line = draw([solidItem(rect(3.25, 0, 0.25, 2), .white)], width: 8, height: 2)
        #expect(abs(Int(line.pixel(x: 3, y: 0).a) - 64) <= 1)  // 0.25 * 255 = 63.75
        #expect(line.pixel(x: 2, y: 0).a == 0 && line.pixel(x: 4, y: 0).a == 0)
        let box = draw([solidItem(rect(2.3, 1.6, 7.45, 3.2), .white)], width: 16, height: 8)
        #expect(abs(coverageSum(box) - 7.45 * 3.2) < 0.05)
        // Corner pixel (2, 1): 0.7 x 0.4 of it is inside.
        #expect(abs(Double(box.pixel(x: 2, y: 1).a) - 0.28 * 255) <= 1)
    }

    @Test("A 40x40 square rotated 30 degrees covers its area within 0.5 %")
    func rotatedSquareArea() {
        let t = rotation(degrees: 30, about: 50, 50)
        let b = draw([solidItem(rect(30, 30, 40, 40), .white, transform: t)], width: 100, height: 100)
        let area = coverageSum(b)
        #expect(abs(area - 1600) / 1600 < 0.005, "area \(area)")
        #expect(b.pixel(x: 50, y: 50).a == 255)
        #expect(b.pixel(x: 31, y: 31).a == 0)  // an axis-aligned corner the rotated square leaves
    }

    @Test("A rounded rect covers w*h - (4 - pi) r^2 within 0.5 %", arguments: [0.0, 17.0])
    func roundedRectArea(degrees: Double) {
        let (w, h, r) = (60.0, 40.0, 12.0)
        let t = rotation(degrees: degrees, about: 50, 50)
        let b = draw([solidItem(rect(20, 30, w, h, radius: r), .white, transform: t)], width: 100, height: 100)
        let expected = w * h - (4 - Double.pi) * r * r
        let area = coverageSum(b)
        #expect(abs(area - expected) / expected < 0.005, "area \(area), expected \(expected)")
        if degrees == 0 {
            #expect(b.pixel(x: 20, y: 30).a == 0)  // the rounded-off corner pixel
            #expect(b.pixel(x: 50, y: 30).a == 255)  // straight top edge on integer pixels
        }
    }

    @Test("Corner radius is clamped to half the shorter side (a 20x10 pill)")
    func radiusClamp() {
        let pill = draw([solidItem(rect(0, 0, 20, 10, radius: 100), .white)], width: 20, height: 10)
        let expected = 20.0 * 10 - (4 - Double.pi) * 25
        #expect(abs(coverageSum(pill) - expected) / expected < 0.01)
    }

    @Test("A clip restricts drawing; pixels outside the clip are untouched")
    func clipRestricts() {
        let bg = RGBAColor(red: 0, green: 1, blue: 0)
        let clip = Clip(transform: .translation(10, 4), shape: rect(0, 0, 12, 8))
        let item = solidItem(rect(0, 0, 40, 20), .white, clips: [clip])
        let b = draw([item], width: 40, height: 20, background: bg)
        for y in 0 ..< 20 {
            for x in 0 ..< 40 {
                let inside = (10 ..< 22).contains(x) && (4 ..< 12).contains(y)
                #expect(b.pixel(x: x, y: y) == (inside ? (255, 255, 255, 255) : (0, 255, 0, 255)), "(\(x), \(y))")
            }
        }
    }

    @Test("Several clips intersect, each under its own transform")
    func clipsIntersect() {
        let a = Clip(transform: .identity, shape: rect(0, 0, 30, 30))
        let rotated = Clip(transform: rotation(degrees: 45, about: 30, 30), shape: rect(20, 20, 20, 20))
        let item = solidItem(rect(0, 0, 60, 60), .white, clips: [a, rotated])
        let b = draw([item], width: 60, height: 60)
        // Quarter of the rotated diamond (area 400) lies in the first clip: 100 px.
        #expect(abs(coverageSum(b) - 100) < 1.5)
        #expect(b.pixel(x: 35, y: 30).a == 0)
        #expect(b.pixel(x: 28, y: 28).a == 255)
    }

    @Test("Coverage row kernel agrees with the Double reference")
    func coverageKernelMatchesReference() {
        var rng = SeededGenerator(seed: 7)
        var rows = [Float](repeating: 0, count: 128)
        for _ in 0 ..< 200 {
            let t = AffineTransform2D.scale(Double.random(in: 0.3 ... 3, using: &rng), Double.random(in: 0.3 ... 3, using: &rng))
                .concatenating(.rotation(Double.random(in: -3.2 ... 3.2, using: &rng) * (Bool.random(using: &rng) ? 1 : 0)))
                .concatenating(.translation(Double.random(in: 0 ... 64, using: &rng), Double.random(in: 0 ... 64, using: &rng)))
            let shape = rect(
                Double.random(in: -10 ... 10, using: &rng), Double.random(in: -10 ... 10, using: &rng),
                Double.random(in: 0.2 ... 40, using: &rng), Double.random(in: 0.2 ... 40, using: &rng),
                radius: Double.random(in: 0 ... 12, using: &rng))
            guard let s = CoverageShape(transform: t, shape: shape), s.bounds.y0 < 128, s.bounds.y1 > 0 else { continue }
            for y in max(0, s.bounds.y0) ..< min(128, s.bounds.y1) {
                let x0 = max(0, s.bounds.x0)
                let x1 = min(128, s.bounds.x1)
                guard x0 < x1 else { continue }
                rows.withUnsafeMutableBufferPointer {
                    CoverageKernels.coverageRow(s, y: y, x0: x0, count: x1 - x0, into: $0.baseAddress!)
                }
                let span = s.span(row: y)
                for x in x0 ..< x1 {
                    let ref = CoverageKernels.referenceCoverage(s, x: x, y: y)
                    #expect(abs(Double(rows[x - x0]) - ref) < 2e-3, "\(t) \(shape) at (\(x), \(y))")
                    if ref > 1e-3 { #expect(span.lower <= x && x < span.upper, "span misses (\(x), \(y))") }
                }
            }
        }
    }

    @Test("coverageRow gives each pixel its scalar value bit for bit (slabs, then the corner ramp) and writes nothing past the run")
    func coverageRowEqualsScalarPixels() {
        var rng = SeededGenerator(seed: 0xC0_4E5)
        var differing: [String] = []
        var cornerPixels = 0
        for trial in 0 ..< 300 {
            let turned = trial % 3 == 0
            let t = AffineTransform2D.scale(Double.random(in: 0.5 ... 3, using: &rng), Double.random(in: 0.5 ... 3, using: &rng))
                .concatenating(.rotation(turned ? Double.random(in: -3.2 ... 3.2, using: &rng) : 0))
                .concatenating(.translation(Double.random(in: 0 ... 40, using: &rng), Double.random(in: 0 ... 40, using: &rng)))
            let shape = rect(0, 0, Double.random(in: 2 ... 50, using: &rng), Double.random(in: 2 ... 50, using: &rng),
                radius: Double.random(in: 0.5 ... 25, using: &rng))
            guard let s = CoverageShape(transform: t, shape: shape) else { continue }
            for y in max(0, s.bounds.y0) ..< min(160, s.bounds.y1) {
                // Runs of every length from every start, as edge runs are.
                let x0 = Int.random(in: s.bounds.x0 ... s.bounds.x1, using: &rng)
                let count = Int.random(in: 0 ... max(0, s.bounds.x1 - x0), using: &rng)
                var out = [Float](repeating: 7, count: count + 16)
                out.withUnsafeMutableBufferPointer { CoverageKernels.coverageRow(s, y: y, x0: x0, count: count, into: $0.baseAddress!) }
                if out[count...].contains(where: { $0 != 7 }) { differing.append("wrote past \(count) pixels") }
                let rowU = Float(s.inverse.c * Double(y) + s.inverse.tx)
                let rowV = Float(s.inverse.d * Double(y) + s.inverse.ty)
                func clamp(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }
                for i in 0 ..< count {
                    let xf = Float(x0) + Float(i)
                    let u = s.ia * xf + rowU, v = s.ib * xf + rowV
                    let cu = clamp(min(0.5 + (s.halfWidth - abs(u)) * s.pixelsPerU, s.widthInPixels))
                    let cv = clamp(min(0.5 + (s.halfHeight - abs(v)) * s.pixelsPerV, s.heightInPixels))
                    let ramp = CoverageKernels.cornerRamp(s, u: u, v: v)
                    if ramp != 1 { cornerPixels += 1 }
                    let expected = min(cu * cv, ramp)
                    if out[i].bitPattern != expected.bitPattern {
                        differing.append("\(shape) at (\(x0 + i), \(y)): \(out[i]) for \(expected)")
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, e.g. \(differing.prefix(3))")
        #expect(cornerPixels > 2000, "\(cornerPixels)")
    }

    @Test("The corner ramp's eight-lane form equals the scalar one bit for bit, in and out of the zones")
    func cornerRampLanes() {
        var rng = SeededGenerator(seed: 0xC0_4E4)
        var differing: [String] = []
        var inZone = 0
        for _ in 0 ..< 300 {
            let t = AffineTransform2D.scale(Double.random(in: 0.3 ... 3, using: &rng), Double.random(in: 0.3 ... 3, using: &rng))
                .concatenating(.rotation(Double.random(in: -3.2 ... 3.2, using: &rng) * (Bool.random(using: &rng) ? 1 : 0)))
                .concatenating(.translation(Double.random(in: -50 ... 50, using: &rng), Double.random(in: -50 ... 50, using: &rng)))
            let shape = rect(0, 0, Double.random(in: 1 ... 80, using: &rng), Double.random(in: 1 ... 80, using: &rng),
                radius: Double.random(in: 0.5 ... 40, using: &rng))
            guard let s = CoverageShape(transform: t, shape: shape) else { continue }
            for _ in 0 ..< 8 {
                // Local points around the shape, corners included (signed: every quadrant), and the exact zone edges.
                var u = SIMD8<Float>(), v = SIMD8<Float>()
                for k in 0 ..< 8 {
                    u[k] = Float.random(in: -1.3 ... 1.3, using: &rng) * (s.halfWidth + 2)
                    v[k] = Float.random(in: -1.3 ... 1.3, using: &rng) * (s.halfHeight + 2)
                }
                u[0] = s.innerHalfWidth
                v[1] = -s.innerHalfHeight
                let lanes = CoverageKernels.cornerRamp8(s, u: u, v: v)
                for k in 0 ..< 8 {
                    let scalar = CoverageKernels.cornerRamp(s, u: u[k], v: v[k])
                    if scalar != 1 { inZone += 1 }
                    if lanes[k].bitPattern != scalar.bitPattern { differing.append("\(shape) at (\(u[k]), \(v[k]))") }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) lanes differ, e.g. \(differing.prefix(3))")
        #expect(inZone > 1000)
    }

    @Test("nonZero trims exactly the zero bytes at both ends of a run, eight at a time or one")
    func nonZeroTrimsZeroEnds() {
        var rng = SeededGenerator(seed: 0x2E_0AB5)
        for _ in 0 ..< 3000 {
            let count = Int.random(in: 0 ... 70, using: &rng)
            // Zeros, then a middle of any bytes (zeros among them), then zeros; or all zeros.
            let lead = Int.random(in: 0 ... count, using: &rng)
            let tail = Int.random(in: 0 ... count - lead, using: &rng)
            var alpha = [UInt8](repeating: 0, count: count)
            for i in lead ..< count - tail { alpha[i] = Bool.random(using: &rng) ? 0 : .random(in: 1 ... 255, using: &rng) }
            let lower = Int.random(in: 0 ... count, using: &rng)
            let upper = Int.random(in: lower ... count, using: &rng)
            // By hand: the first and last non-zero bytes of the range, or an empty run at its end.
            let inked = (lower ..< upper).filter { alpha[$0] != 0 }
            let expected = inked.isEmpty ? (upper, upper) : (inked.first!, inked.last! + 1)
            let got = alpha.withUnsafeBufferPointer { CoverageKernels.nonZero($0.baseAddress!, lower, upper) }
            #expect(got == expected, "count \(count), range \(lower) ..< \(upper)")
        }
    }
}
