#if canImport(Glibc)
import Glibc
#endif
import Testing
import Primitives
import FramePlan
@testable import Compositor

@Suite("Borders and shadows")
struct BorderAndShadowTests {
    static func ringArea(_ w: Double, _ h: Double, _ r: Double, _ width: Double) -> Double {
        func area(_ w: Double, _ h: Double, _ r: Double) -> Double { w * h - (4 - .pi) * r * r }
        return area(w, h, min(r, min(w, h) / 2)) - area(w - 2 * width, h - 2 * width, max(0, r - width))
    }

    @Test(
        "A border's coverage sum equals the ring area within 1 % (axis-aligned and rotated, thin and thick)",
        arguments: [(0.0, 1.0, 12.0), (0.0, 4.5, 12.0), (23.0, 2.0, 8.0), (23.0, 15.0, 10.0), (0.0, 0.5, 0.0)])
    func borderArea(degrees: Double, width: Double, radius: Double) {
        let t = rotation(degrees: degrees, about: 60, 50)
        let item = DrawItem(transform: t, shape: rect(20, 20, 80, 60, radius: radius), paint: .border(width: width, color: .white))
        let b = draw([item], width: 120, height: 100)
        let expected = Self.ringArea(80, 60, radius, width)
        #expect(abs(coverageSum(b) - expected) / expected < 0.01, "sum \(coverageSum(b)) expected \(expected)")
        if degrees == 0 {
            #expect(b.pixel(x: 60, y: 50).a == 0)  // the hole
            if width >= 1 { #expect(b.pixel(x: 60, y: 20).a == 255) }  // top edge on integer pixels
        }
    }

    @Test("Inner radius is max(0, r - width): a 4-wide border of radius 4 has a sharp inner corner")
    func innerRadius() {
        let item = DrawItem(transform: .identity, shape: rect(10, 10, 40, 30, radius: 4), paint: .border(width: 4, color: .white))
        let b = draw([item], width: 60, height: 50)
        #expect(b.pixel(x: 14, y: 14).a == 0)  // just inside the sharp inner corner
        #expect(b.pixel(x: 13, y: 14).a == 255)
        #expect(b.pixel(x: 14, y: 13).a == 255)
        #expect(b.pixel(x: 10, y: 10).a < 128)  // the rounded outer corner
    }

    @Test("A border wider than half the shape fills it; animated width and colour draw as given")
    func wideBorderAndColour() {
        let full = draw(
            [DrawItem(transform: .identity, shape: rect(0, 0, 10, 6), paint: .border(width: 3, color: .white))],
            width: 10, height: 6)
        #expect(coverageSum(full) == 60)
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        let b = draw(
            [DrawItem(transform: .identity, shape: rect(0, 0, 10, 10), paint: .border(width: 2, color: red), opacity: 0.5)],
            width: 10, height: 10)
        #expect(abs(Int(b.pixel(x: 0, y: 5).a) - 64) <= 1 && abs(Int(b.pixel(x: 0, y: 5).r) - 64) <= 1)
        #expect(b.pixel(x: 5, y: 5).a == 0)
    }

    @Test(
        "Total shadow energy equals shape area x alpha within 1 %",
        arguments: [(0.0, 3.0, 0.0), (0.0, 6.0, 16.0), (30.0, 5.0, 12.0), (0.0, 12.0, 30.0)])
    func shadowEnergy(degrees: Double, sigma: Double, radius: Double) {
        let t = rotation(degrees: degrees, about: 100, 90)
        let shape = rect(60, 50, 80, 70, radius: radius)
        let color = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.8)
        let b = draw([DrawItem(transform: t, shape: shape, paint: .shadow(color: color, sigma: sigma))], width: 200, height: 180)
        let expected = (80 * 70 - (4 - Double.pi) * radius * radius) * 0.8
        #expect(abs(coverageSum(b) - expected) / expected < 0.01, "energy \(coverageSum(b)) expected \(expected)")
    }

    @Test("A shadow's profile across a straight edge is the Gaussian CDF within 2/255")
    func shadowEdgeProfile() {
        let sigma = 6.0
        let item = DrawItem(transform: .identity, shape: rect(100, -50, 200, 300, radius: 10), paint: .shadow(color: .black, sigma: sigma))
        let b = draw([item], width: 200, height: 100)
        for x in 70 ..< 130 {
            let d = (Double(x) + 0.5 - 100) / sigma  // signed distance into the shape, in sigmas
            let expected = 0.5 * (1 + erf(d / 2.squareRoot())) * 255
            #expect(abs(Double(b.pixel(x: x, y: 50).a) - expected) <= 2, "x \(x)")
        }
    }

    @Test("Sigma 0 draws the hard shape; a shadow follows its offset shape, colour and opacity")
    func hardShadow() {
        let color = RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let hard = draw(
            [DrawItem(transform: .identity, shape: rect(3, 4, 10, 6, radius: 2), paint: .shadow(color: color, sigma: 0))],
            width: 20, height: 20)
        let solid = draw([solidItem(rect(3, 4, 10, 6, radius: 2), color)], width: 20, height: 20)
        #expect(hard == solid)
        let soft = draw(
            [
                DrawItem(
                    transform: .translation(5, 5), shape: rect(20, 20, 40, 40, radius: 6),
                    paint: .shadow(color: color, sigma: 3), opacity: 0.5)
            ], width: 80, height: 80)
        let centre = soft.pixel(x: 45, y: 45)
        #expect(abs(Int(centre.a) - 64) <= 1 && abs(Int(centre.b) - 64) <= 1 && centre.r == 0)
    }

    @Test(
        "Shadow kernel (Float SIMD, approximate erf) matches the Double reference within 1/255",
        arguments: [1 as UInt64, 2, 3, 4])
    func shadowKernelMatchesReference(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var row = [Float](repeating: 0, count: 160 + 8)
        let scratch = RowScratch(width: 160)
        var worst = 0.0
        for trial in 0 ..< 30 {
            let t = AffineTransform2D.scale(Double.random(in: 0.5 ... 2, using: &rng), Double.random(in: 0.5 ... 2, using: &rng))
                .concatenating(.rotation(trial % 2 == 0 ? 0 : Double.random(in: -3 ... 3, using: &rng)))
                .concatenating(.translation(Double.random(in: 40 ... 100, using: &rng), Double.random(in: 40 ... 100, using: &rng)))
            let shape = rect(
                -20, -15, Double.random(in: 2 ... 60, using: &rng), Double.random(in: 2 ... 50, using: &rng),
                radius: Double.random(in: 0 ... 25, using: &rng))
            guard let s = ShadowShape(transform: t, shape: shape, sigma: Double.random(in: 0.3 ... 12, using: &rng)) else { continue }
            let x0 = max(0, s.extent.bounds.x0)
            let x1 = min(160, s.extent.bounds.x1)
            guard x0 < x1 else { continue }
            ShadowKernels.prepareColumns(s, x0: x0, count: x1 - x0, into: scratch.shadowColumns + x0)
            for y in max(0, s.extent.bounds.y0) ..< min(160, s.extent.bounds.y1) {
                row.withUnsafeMutableBufferPointer {
                    ShadowKernels.shadowRow(
                        s, y: y, x0: x0, count: x1 - x0,
                        columns: s.isAxisAligned ? UnsafePointer(scratch.shadowColumns) : nil,
                        into: $0.baseAddress!)
                }
                for x in x0 ..< x1 { worst = max(worst, abs(Double(row[x - x0]) - s.referenceValue(x: x, y: y))) }
            }
        }
        #expect(worst * 255 <= 1, "worst \(worst * 255)/255")
    }

    @Test(
        "A shadow row gives each pixel the same bits wherever its run starts: lane and vector width do not matter",
        arguments: [8 as UInt64, 9])
    func shadowRowBitsIndependentOfRunStart(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let width = 200
        let scratch = RowScratch(width: width)
        var (whole, part) = ([Float](repeating: 0, count: width + 8), [Float](repeating: 0, count: width + 8))
        var (compared, differing) = (0, [String]())
        for _ in 0 ..< 30 {
            let t = AffineTransform2D.scale(Double.random(in: 0.8 ... 2, using: &rng), Double.random(in: 0.8 ... 2, using: &rng))
                .concatenating(.translation(Double.random(in: 20 ... 60, using: &rng), Double.random(in: 20 ... 60, using: &rng)))
            let shape = rect(
                0, 0, Double.random(in: 10 ... 70, using: &rng), Double.random(in: 4 ... 40, using: &rng),
                radius: Double.random(in: 2 ... 20, using: &rng))
            guard let s = ShadowShape(transform: t, shape: shape, sigma: Double.random(in: 1 ... 12, using: &rng)) else { continue }
            let x0 = max(0, s.extent.bounds.x0)
            let x1 = min(width, s.extent.bounds.x1)
            guard x1 - x0 > 40 else { continue }
            ShadowKernels.prepareColumns(s, x0: x0, count: x1 - x0, into: scratch.shadowColumns + x0)
            let columns = UnsafePointer(scratch.shadowColumns)
            for y in max(0, s.extent.bounds.y0) ..< min(width, s.extent.bounds.y1) {
                whole.withUnsafeMutableBufferPointer {
                    ShadowKernels.shadowRow(s, y: y, x0: x0, count: x1 - x0, columns: columns, into: $0.baseAddress!)
                }
                let shift = Int.random(in: 1 ... 15, using: &rng)
                part.withUnsafeMutableBufferPointer {
                    ShadowKernels.shadowRow(s, y: y, x0: x0 + shift, count: x1 - x0 - shift, columns: columns, into: $0.baseAddress!)
                }
                for x in x0 + shift ..< x1 {
                    compared += 1
                    if whole[x - x0].bitPattern != part[x - x0 - shift].bitPattern { differing.append("y \(y) x \(x)") }
                }
            }
        }
        #expect(compared > 10_000 && differing.isEmpty, "\(compared) pixels compared; differing: \(differing.prefix(5))")
    }

    @Test(
        "The row-hoisted corner correction gives the per-pixel one's bits, or within 1e-4 where far sides saturate",
        arguments: [5 as UInt64, 6, 7])
    func hoistedCornerCorrectionIsExact(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var (exact, saturating) = (0, 0)
        for _ in 0 ..< 40 {
            let t = AffineTransform2D.scale(Double.random(in: 0.5 ... 3, using: &rng), Double.random(in: 0.5 ... 3, using: &rng))
                .concatenating(.translation(Double.random(in: 0 ... 50, using: &rng), Double.random(in: 0 ... 50, using: &rng)))
            let shape = rect(
                0, 0, Double.random(in: 2 ... 80, using: &rng), Double.random(in: 2 ... 60, using: &rng),
                radius: Double.random(in: 1 ... 30, using: &rng))
            guard let s = ShadowShape(transform: t, shape: shape, sigma: Double.random(in: 0.3 ... 16, using: &rng)) else { continue }
            #expect(s.isAxisAligned)
            let rows = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: ShadowKernels.maxCornerRows)
            let masses = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: ShadowKernels.maxCornerRows)
            defer { rows.deallocate(); masses.deallocate() }
            for _ in 0 ..< 12 {
                let av = Float.random(in: max(0, s.zoneV) ... s.halfHeight + s.reach, using: &rng)
                let count = ShadowKernels.cornerRows(s, av: av, rows: rows, masses: masses)
                #expect(count == (s.bothSides ? 2 : 1) * ShadowShape.cornerSamples)
                let au = SIMD8<Float>((0 ..< 8).map { _ in Float.random(in: 0 ... s.halfWidth + s.reach, using: &rng) })
                let avs = SIMD8<Float>(repeating: av)
                let phiFull = ShadowKernels.phi8(au, SIMD8(repeating: s.halfWidth), s.k)
                let perPixel = ShadowKernels.correction8(s, au: au, av: avs, phiFull: phiFull)
                let hoisted = ShadowKernels.correction8(
                    s, rows: rows, masses: masses, count: count, au: au, av: avs, phiFull: phiFull)
                if s.farSideSaturates {
                    let worst = (0 ..< 8).map { abs(perPixel[$0] - hoisted[$0]) }.max()!
                    #expect(worst <= 1e-4, "av \(av): \(perPixel) against \(hoisted)")
                    saturating += 1
                } else {
                    #expect(perPixel.bitPattern == hoisted.bitPattern, "av \(av): \(perPixel) against \(hoisted)")
                    exact += 1
                }
            }
        }
        #expect(exact > 50 && saturating > 50, "\(exact) exact, \(saturating) saturating")
    }
}

private extension SIMD8<Float> {
    var bitPattern: [UInt32] { (0 ..< 8).map { self[$0].bitPattern } }
}
