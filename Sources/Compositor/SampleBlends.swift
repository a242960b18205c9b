#if SHIFTRENDER_AVX2
import _Builtin_intrinsics.intel
#endif
/// How the fused sampling loop (`Sampling.horizontalOver`) lays its samples
/// onto the target: what is made of a sample first (`SampleLaying`), then how
/// it meets the target (`SampleBlend`). Each form is one type carrying its
/// hoisted constants and its arithmetic at every vector width the build has,
/// so the loop is specialized per form (no test per eight pixels) and a width
/// added to the loop is added here once, beside the eight-pixel form it must equal.
protocol SampleLaying {
    func laid(_ sample: Pixels8) -> Pixels8
    #if SHIFTRENDER_AVX512
    func laid(_ sample: Pixels16) -> Pixels16
    #endif
}

protocol SampleBlend {
    /// The blended pixels; `target` loads the target's pixels when the blend needs them.
    func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8
    #if SHIFTRENDER_AVX512
    func over(_ target: () -> Pixels16, _ sample: Pixels16) -> Pixels16
    /// `over(target, laying.laid(WidePixels.stepToward(p, q, factor:)))`: the sample's bilinear step and
    /// the blend, which a form may fuse.
    func over<Laying: SampleLaying>(
        _ target: () -> Pixels16, _ laying: Laying, steppingFrom p: Pixels16, to q: Pixels16, factor: Pixels16
    ) -> Pixels16
    #endif
}

#if SHIFTRENDER_AVX512
extension SampleBlend {
    @inline(__always)
    func over<Laying: SampleLaying>(
        _ target: () -> Pixels16, _ laying: Laying, steppingFrom p: Pixels16, to q: Pixels16, factor: Pixels16
    ) -> Pixels16 {
        over(target, laying.laid(WidePixels.stepToward(p, q, factor: factor)))
    }
}
#endif

/// The samples as they are.
struct AsSampled: SampleLaying {
    @inline(__always) func laid(_ sample: Pixels8) -> Pixels8 { sample }
    #if SHIFTRENDER_AVX512
    @inline(__always) func laid(_ sample: Pixels16) -> Pixels16 { sample }
    #endif
}

/// Each sample laid over a backing colour (`LayerBypass`'s and `BackedGroupFill`'s backed bitmaps): opaque
/// samples when the colour is. A blend at alpha 255, so the form without the sample's products
/// (`BlendKernels.blendFull8`, the same bits).
struct Backed: SampleLaying {
    let colour: UInt32

    @inline(__always) func laid(_ sample: Pixels8) -> Pixels8 { BlendKernels.blendFull8(Pixels8(repeating: colour), sample) }
    #if SHIFTRENDER_AVX512
    @inline(__always) func laid(_ sample: Pixels16) -> Pixels16 { WidePixels.blendFull(WidePixels.splat(colour), sample) }
    #endif
}

/// Opaque samples at alpha 255: stored (what the blend gives for them).
struct OpaqueStored: SampleBlend {
    @inline(__always) func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8 { sample }
    #if SHIFTRENDER_AVX512
    @inline(__always) func over(_ target: () -> Pixels16, _ sample: Pixels16) -> Pixels16 { sample }
    #endif
}

/// Opaque samples below alpha 255: `d + mulhrs(s - d, f)` with the alpha's factor (`OpaqueAlphaFactors`)
/// where the build has `vpmulhrsw`, else the alpha's products hoisted (`BlendKernels.blendOpaque8`).
struct OpaqueAtAlpha: SampleBlend {
    #if SHIFTRENDER_AVX2
    let factor: __m256i

    @inline(__always) init(_ alpha: UInt8) {
        factor = _mm256_set1_epi16(OpaqueAlphaFactors.table[Int(alpha)])
    }

    @inline(__always) func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8 {
        BlendKernels.blendOpaque8(target(), sample, factor: factor)
    }
    #else
    let alpha2: Channels16
    let inverse2: Channels16

    @inline(__always) init(_ alpha: UInt8) {
        alpha2 = doubled(Pixels8(repeating: UInt32(alpha)))
        inverse2 = doubled(Pixels8(repeating: 255 &- UInt32(alpha)))
    }

    @inline(__always) func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8 {
        BlendKernels.blendOpaque8(target(), sample, alpha2, inverse2)
    }
    #endif
    #if SHIFTRENDER_AVX512
    @inline(__always) func over(_ target: () -> Pixels16, _ sample: Pixels16) -> Pixels16 {
        WidePixels.blendOpaque(target(), sample, factor: _mm512_broadcast_i32x4(_mm256_castsi256_si128(factor)))
    }

    /// Samples as they are: both steps on the channels' halves (`WidePixels.stepTowardTwice`), the same bits.
    @inline(__always)
    func over<Laying: SampleLaying>(
        _ target: () -> Pixels16, _ laying: Laying, steppingFrom p: Pixels16, to q: Pixels16, factor: Pixels16
    ) -> Pixels16 {
        guard Laying.self == AsSampled.self else { return over(target, laying.laid(WidePixels.stepToward(p, q, factor: factor))) }
        let blendFactor = _mm512_broadcast_i32x4(_mm256_castsi256_si128(self.factor))
        return WidePixels.stepTowardTwice(p, q, factor: factor, from: target(), factor: blendFactor)
    }
    #endif
}

/// Any samples at alpha 255: laid down without multiplying them (`BlendKernels.blendFull8`).
struct AnyAtFullAlpha: SampleBlend {
    @inline(__always) func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8 { BlendKernels.blendFull8(target(), sample) }
    #if SHIFTRENDER_AVX512
    @inline(__always) func over(_ target: () -> Pixels16, _ sample: Pixels16) -> Pixels16 {
        WidePixels.blendFull(target(), sample)
    }
    #endif
}

/// Any samples below alpha 255: the whole source-over (`BlendKernels.blend8`).
struct AnyAtAlpha: SampleBlend {
    let alpha: UInt32

    @inline(__always) init(_ alpha: UInt8) { self.alpha = UInt32(alpha) }

    @inline(__always) func over(_ target: () -> Pixels8, _ sample: Pixels8) -> Pixels8 {
        BlendKernels.blend8(target(), sample, Pixels8(repeating: alpha))
    }
    #if SHIFTRENDER_AVX512
    @inline(__always) func over(_ target: () -> Pixels16, _ sample: Pixels16) -> Pixels16 {
        WidePixels.blend(target(), sample, WidePixels.splat(alpha))
    }
    #endif
}
