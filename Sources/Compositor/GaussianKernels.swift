#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif

/// The backdrop blur's Gaussian (`BackdropFill`): five passes of an extended
/// box filter per axis, on *lines* of premultiplied RGBA8 pixels held as Float.
///
/// ## Why five extended boxes, not a sampled Gaussian
/// A box of half-width `r` plus two end taps of weight `alpha` (an "extended
/// box": weights `alpha, 1, ..., 1, alpha` over `2r + 1 + 2 alpha`) is a
/// running sum: constant cost per pixel whatever sigma. Its variance is
/// `(r(r+1)(2r+1)/3 + 2 alpha (r+1)^2) / (2r + 1 + 2 alpha)`, so choosing `r`
/// (the largest with `r(r+1)/3 <= sigma^2 / passes`) and solving for `alpha`
/// makes `passes` of them have variance exactly `sigma^2` (plain boxes of whole
/// widths miss it by up to 4 % at sigma 4, a 2.5/255 error on an edge).
/// The error left is the shape's: the step-edge profile of `n` convolved
/// boxes against the Gaussian's `0.5 (1 + erf(x / (sigma sqrt 2)))`
/// (Irwin-Hall), worst over x, for sigma >= 2 px (worked out in Double with
/// numpy over sigma 2 ... 256): three boxes 2.5/255 (too far for the 2/255
/// requirement, before the final rounding to bytes), four 1.9/255, five
/// 1.46/255, six 1.2/255. Five passes keep the rounded bytes within 2/255.
/// A sampled Gaussian cut at 3 sigma is closer (0.34/255) but costs
/// `6 sigma + 1` multiply-adds per pixel and axis: 181 at sigma 30 px (a 20 pt
/// blur at @3x), against five passes of about four adds per channel here.
/// Below sigma 2 px neither matches the continuous formula within 2/255
/// (sigma 1: boxes 6/255, sampled Gaussian 2/255); a blur that small barely
/// shows and is drawn as these boxes give it.
///
/// ## Layout
/// A line buffer holds eight independent lines side by side, one per SIMD
/// lane (eight rows of the target for the horizontal axis, eight columns for
/// the vertical one): `line[p * 4 + c]` is channel `c` (r, g, b, a) at
/// position `p` of all eight lines. So every step works on eight pixels, as
/// the other kernels do (`PixelVectors`), and the running sums vectorize
/// without a transpose pass. Values are Float in 0...255: sums of bytes are
/// exact, the running sum's rounding stays far below 1/255, and the scalar
/// reference (the same operations in the same order per lane) matches the
/// vector code bit for bit.
///
/// A pass with half-width `r` reads `r + 1` positions beyond what it writes,
/// so five passes turn `count + 10 (r + 1)` loaded positions into `count`.
enum GaussianKernels {
    /// Box passes per axis (see above for why five).
    static let passes = 5

    /// One extended box: weights `endWeight, 1 x (2 radius + 1), endWeight`, times `scale`.
    struct Box: Sendable, Equatable {
        let radius: Int
        let endWeight: Float
        let scale: Float

        /// Positions a pass reads beyond each end of what it writes.
        var reach: Int { radius + 1 }
        /// Positions the whole blur reads beyond each end of what it writes.
        var margin: Int { GaussianKernels.passes * reach }

        /// The box whose `passes`-fold convolution has standard deviation
        /// `sigma` (pixels, positive and finite; callers cap it).
        init(sigma: Double) {
            let v = sigma * sigma / Double(GaussianKernels.passes)
            var r = 0
            while Double((r + 1) * (r + 2)) / 3 <= v { r += 1 }
            let plain = Double(r * (r + 1) * (2 * r + 1)) / 3
            let alpha = (v * Double(2 * r + 1) - plain) / (2 * Double((r + 1) * (r + 1)) - 2 * v)
            let a = min(max(alpha, 0), 1)
            radius = r
            endWeight = Float(a)
            scale = Float(1 / (Double(2 * r + 1) + 2 * a))
        }

        /// The kernel's variance in pixels squared, from the Float weights (for tests).
        var variance: Double {
            let r = Double(radius)
            let a = Double(endWeight)
            return Double(GaussianKernels.passes) * (r * (r + 1) * (2 * r + 1) / 3 + 2 * a * (r + 1) * (r + 1))
                * Double(scale)
        }
    }

    /// Pixel `(x, y)` of a lane-interleaved load: `source + offsets[lane] + index(p) * step`.
    /// Positions `0 ..< count` read index `clamp(start + p, lower, upper - 1)`
    /// (so beyond `lower ..< upper` a line repeats its end pixels).
    struct LineSource {
        let pixels: UnsafePointer<UInt32>
        let offsets: SIMD8<Int>
        let step: Int
        let start: Int, lower: Int, upper: Int

        @inline(__always)
        func index(_ p: Int) -> Int { min(max(start + p, lower), upper - 1) * step }
    }

    // MARK: Vector kernels

    /// Loads positions `0 ..< count` of eight lines into `line` (4 vectors per position).
    static func load(_ source: LineSource, count: Int, into line: UnsafeMutablePointer<SIMD8<Float>>) {
        let o = source.offsets
        let s = source.pixels
        for p in 0 ..< count {
            let i = source.index(p)
            let v = Pixels8(s[o[0] + i], s[o[1] + i], s[o[2] + i], s[o[3] + i], s[o[4] + i], s[o[5] + i], s[o[6] + i], s[o[7] + i])
            let q = line + p * 4
            q[0] = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: v & 0xFF))
            q[1] = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (v &>> 8) & 0xFF))
            q[2] = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (v &>> 16) & 0xFF))
            q[3] = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: v &>> 24))
        }
    }

    /// One extended-box pass: positions `lower ..< upper` of `dst` from
    /// `lower - reach ..< upper + reach` of `src`.
    static func boxPass(
        _ box: Box, from src: UnsafePointer<SIMD8<Float>>, to dst: UnsafeMutablePointer<SIMD8<Float>>,
        lower: Int, upper: Int
    ) {
        guard lower < upper else { return }
        let r = box.radius
        let a = SIMD8<Float>(repeating: box.endWeight)
        let scale = SIMD8<Float>(repeating: box.scale)
        // All four channels per position, each with its own running sum (the same operations per channel as
        // one channel at a time, so the same bits): a channel at a time streamed the line four times, reading a
        // quarter of each 128-byte position, and the pass waited on memory. Running pointers and wrapping counts:
        // indexed as `src[(p + r + 1) * 4 + c]`, every step checked its arithmetic for overflow (Swift 6.3).
        var sums = (SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0), SIMD8<Float>(repeating: 0))
        for q in lower - r ... lower + r {
            sums.0 += src[q * 4]
            sums.1 += src[q * 4 + 1]
            sums.2 += src[q * 4 + 2]
            sums.3 += src[q * 4 + 3]
        }
        var farEnd = src + (lower - r - 1) * 4
        var leaving = farEnd + 4
        var entering = src + (lower + r + 1) * 4
        var out = dst + lower * 4
        var n = upper &- lower
        @inline(always)
        func step(_ sum: inout SIMD8<Float>, _ c: Int) {
            let next = entering[c]
            out[c] = (sum + a * (farEnd[c] + next)) * scale
            sum = sum + next - leaving[c]
        }
        while n > 0 {
            step(&sums.0, 0)
            step(&sums.1, 1)
            step(&sums.2, 2)
            step(&sums.3, 3)
            farEnd += 4
            leaving += 4
            entering += 4
            out += 4
            n &-= 1
        }
    }

    /// Blurs eight lines: loads `count + 2 margin` positions from `source`
    /// (whose `start` is the first output's coordinate minus the margin), runs
    /// the passes between `a` and `b` (each `count + 2 margin` positions), and
    /// leaves the `count` results in `b` from position `margin` on.
    static func blurLines(
        _ box: Box, _ source: LineSource, count: Int,
        _ a: UnsafeMutablePointer<SIMD8<Float>>, _ b: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        let length = count + 2 * box.margin
        load(source, count: length, into: a)
        var (src, dst) = (a, b)
        for k in 1 ... passes {
            boxPass(box, from: src, to: dst, lower: k * box.reach, upper: length - k * box.reach)
            (src, dst) = (dst, src)
        }
        // An odd number of passes ends in `b`.
    }

    /// Packs positions `first ..< first + count` of the eight lines to RGBA8
    /// (rounded, colour clamped to alpha so the pixels stay premultiplied) and
    /// stores lane `k < lanes` at `destination + offsets[k] + p * step`.
    static func store(
        _ line: UnsafePointer<SIMD8<Float>>, first: Int, count: Int, lanes: Int,
        to destination: UnsafeMutablePointer<UInt32>, offsets: SIMD8<Int>, step: Int
    ) {
        // Wrapping offsets from a running pointer, and all eight lanes written without a loop when all
        // eight are wanted (every group but a frame's last): the checked `offsets[k] + p * step` cost more
        // than the packing.
        var row = destination
        var q = line + first &* 4
        var n = count
        let o = offsets
        while n > 0 {
            let v = pack8(q)
            if lanes == 8 {
                row[o[0]] = v[0]; row[o[1]] = v[1]; row[o[2]] = v[2]; row[o[3]] = v[3]
                row[o[4]] = v[4]; row[o[5]] = v[5]; row[o[6]] = v[6]; row[o[7]] = v[7]
            } else {
                for k in 0 ..< lanes { row[o[k]] = v[k] }
            }
            row += step
            q += 4
            n &-= 1
        }
    }

    /// The RGBA8 words of one position of the eight lines (channels at `q[0 ... 3]`): each channel
    /// `roundedByte`, the colour ones no more than alpha's.
    @inline(always)
    static func pack8(_ q: UnsafePointer<SIMD8<Float>>) -> Pixels8 {
        #if SHIFTRENDER_AVX2
        // Clamped and capped in Float, then rounded: rounding is monotone, so min(round c, round a) is
        // round(min(c, a)). `vmaxps` gives its second operand for NaN: 0, as `bytes8`. The generic form
        // below compiled to a lane-by-lane loop in Swift 6.3 (`pointwiseMin`): 2.9 G of the blur benchmark's
        // 9.6 G instructions.
        let zero = _mm256_setzero_ps()
        let alpha = _mm256_min_ps(_mm256_max_ps(q[3], zero), _mm256_set1_ps(255))
        func byte(_ c: __m256) -> Pixels8 {
            let rounded = _mm256_add_ps(c, _mm256_set1_ps(12_582_912))
            return unsafeBitCast(rounded, to: Pixels8.self) & Pixels8(repeating: 0xFF)
        }
        func capped(_ c: SIMD8<Float>) -> Pixels8 { byte(_mm256_min_ps(_mm256_max_ps(c, zero), alpha)) }
        return capped(q[0]) | (capped(q[1]) &<< 8) | (capped(q[2]) &<< 16) | (byte(alpha) &<< 24)
        #else
        return portablePack8(q)
        #endif
    }

    /// `pack8` in Swift SIMD alone: what builds without AVX run (tests compare the two).
    static func portablePack8(_ q: UnsafePointer<SIMD8<Float>>) -> Pixels8 {
        let alpha = bytes8(q[3])
        let red = pointwiseMin(bytes8(q[0]), alpha)
        let green = pointwiseMin(bytes8(q[1]), alpha) &<< 8
        let blue = pointwiseMin(bytes8(q[2]), alpha) &<< 16
        return red | green | blue | (alpha &<< 24)
    }


    /// `roundedByte` of eight values clamped to 0...255 (NaN as 0).
    @inline(__always)
    static func bytes8(_ v: SIMD8<Float>) -> Pixels8 {
        var c = v.replacing(with: 0, where: .!(v .> 0))
        c = c.replacing(with: 255, where: c .> 255)
        let shifted = c + SIMD8<Float>(repeating: 12_582_912)
        return unsafeBitCast(shifted, to: Pixels8.self) & Pixels8(repeating: 0xFF)
    }

    // MARK: Scalar reference

    /// One line blurred with plain Floats: `pixels` are the `count + 2 margin`
    /// loaded pixels (RGBA8 words), the result the `count` blurred ones. The
    /// same operations in the same order as the vector path, lane by lane.
    static func referenceLine(_ box: Box, _ pixels: [UInt32], count: Int) -> [UInt32] {
        let length = count + 2 * box.margin
        precondition(pixels.count == length)
        var a = [Float](repeating: 0, count: length * 4)
        for p in 0 ..< length {
            for c in 0 ..< 4 { a[p * 4 + c] = Float(Int32((pixels[p] >> (8 * UInt32(c))) & 0xFF)) }
        }
        var b = a
        let r = box.radius
        for k in 1 ... passes {
            let lower = k * box.reach
            let upper = length - k * box.reach
            for c in 0 ..< 4 {
                var sum: Float = 0
                for q in lower - r ... lower + r { sum += a[q * 4 + c] }
                for p in lower ..< upper {
                    let entering = a[(p + r + 1) * 4 + c]
                    b[p * 4 + c] = (sum + box.endWeight * (a[(p - r - 1) * 4 + c] + entering)) * box.scale
                    sum = sum + entering - a[(p - r) * 4 + c]
                }
            }
            swap(&a, &b)
        }
        return (0 ..< count).map { i in
            let q = (box.margin + i) * 4
            func byte(_ v: Float) -> UInt32 { UInt32(roundedByte(v > 0 ? min(v, 255) : 0)) }
            let alpha = byte(a[q + 3])
            return min(byte(a[q]), alpha) | (min(byte(a[q + 1]), alpha) << 8) | (min(byte(a[q + 2]), alpha) << 16) | (alpha << 24)
        }
    }
}
