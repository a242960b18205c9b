/// Float vectors the shadow kernels run at: `SIMD8<Float>` on every build,
/// and `SIMD16<Float>` where the build targets AVX-512 (`SHIFTRENDER_AVX512`),
/// whose 512-bit FMAs issue two a cycle like the 256-bit ones, so sixteen
/// lanes do twice the work per instruction. The kernels are written once,
/// generic over this protocol, and specialized per width: each lane computes
/// the same operations in the same order, so the bits do not depend on the width.
/// Here is what generic `SIMD` code cannot say, or says slowly: the fused
/// multiply-add, the reciprocal's bit-pattern seed, a splat of a run-time value
/// and a per-lane choice. Swift 6.3 compiles generic `init(repeating:)` (so
/// every vector-scalar operator), comparisons and `replacing(with:where:)` to
/// lane-by-lane loops: with them in the sixteen-lane corner loop the whole
/// benchmark plan drew at about half its speed (benchmarks/RESULTS.md).
protocol FloatLanes: SIMD where Scalar == Float {
    /// Every lane `value`.
    static func splat(_ value: Float) -> Self
    /// An eight-lane splat (every lane the same) at this width: for eight lanes the vector itself.
    static func widened(_ splat: SIMD8<Float>) -> Self
    /// Per lane, `then` where `a < b`, else `otherwise` (NaN compares false).
    static func choose(_ a: Self, lessThan b: Self, _ then: Self, _ otherwise: Self) -> Self
    /// `a * b + c`: one fused multiply-add where the build has FMA (the AVX2 and AVX-512 targets), else two
    /// roundings; the bench scenes' frames came out byte-identical either way. Not `addingProduct`
    /// everywhere: without FMA hardware that is a call to a software `fmaf` per lane.
    static func mulAdd(_ a: Self, _ b: Self, _ c: Self) -> Self
    /// `0x7EF311C7 - bits`: a reciprocal's estimate to refine by Newton steps (`ShadowKernels.erf8`).
    var reciprocalSeed: Self { get }
}

extension SIMD8: FloatLanes where Scalar == Float {
    @inline(always)
    static func splat(_ value: Float) -> Self { SIMD8(repeating: value) }

    @inline(always)
    static func widened(_ splat: SIMD8<Float>) -> Self { splat }

    @inline(always)
    static func choose(_ a: Self, lessThan b: Self, _ then: Self, _ otherwise: Self) -> Self {
        otherwise.replacing(with: then, where: a .< b)
    }

    @inline(always)
    static func mulAdd(_ a: Self, _ b: Self, _ c: Self) -> Self {
        #if SHIFTRENDER_AVX2
        c.addingProduct(a, b)
        #else
        a * b + c
        #endif
    }

    @inline(always)
    var reciprocalSeed: Self {
        unsafeBitCast(SIMD8<UInt32>(repeating: 0x7EF3_11C7) &- unsafeBitCast(self, to: SIMD8<UInt32>.self), to: Self.self)
    }
}

#if SHIFTRENDER_AVX512
extension SIMD16: FloatLanes where Scalar == Float {
    @inline(always)
    static func splat(_ value: Float) -> Self { SIMD16(repeating: value) }

    @inline(always)
    static func widened(_ splat: SIMD8<Float>) -> Self { SIMD16(lowHalf: splat, highHalf: splat) }

    @inline(always)
    static func choose(_ a: Self, lessThan b: Self, _ then: Self, _ otherwise: Self) -> Self {
        otherwise.replacing(with: then, where: a .< b)
    }

    @inline(always)
    static func mulAdd(_ a: Self, _ b: Self, _ c: Self) -> Self { c.addingProduct(a, b) }

    @inline(always)
    var reciprocalSeed: Self {
        unsafeBitCast(SIMD16<UInt32>(repeating: 0x7EF3_11C7) &- unsafeBitCast(self, to: SIMD16<UInt32>.self), to: Self.self)
    }
}
#endif
