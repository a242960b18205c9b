/// Source-over of an opaque source at one alpha `a` as one multiply per channel pair instead of two.
///
/// For an opaque source the blend is `div255(s * a + d * (255 - a))` per channel, and `s * a + d * (255 - a)`
/// is `255 d + (s - d) a`, whole in 255ths but for `(s - d) a`: so the result is `d + round((s - d) a / 255)`
/// (a quotient by 255 is never half-way). `vpmulhrsw` gives `floor((x f + 2^14) / 2^15)` per signed 16-bit
/// lane; for each alpha there is a factor `f` that makes that `round(x a / 255)` for every difference `x` in
/// -255...255, though no one formula gives it (`round(a * 32768 / 255)` is wrong for 22 alphas). The table
/// holds, per alpha, the least factor every difference allows, worked out from the differences' bounds;
/// `SampleArithmeticTests` checks every alpha against every difference.
///
/// Why: the opaque blend (`BlendKernels.blendOpaque8` and its sixteen-pixel form) is the fused sampling loop's
/// blend for photos and backed card groups, and the constant-colour blend's for opaque colours. It was four
/// 16-bit multiplies per vector, two of the source and two of the target; it is two, with fewer adds and no
/// division by 255 left.
enum OpaqueAlphaFactors {
    /// `table[a]`: the factor for alpha `a`.
    static let table: [Int16] = (0 ... 255).map(factor)

    /// The least `f` with `floor((x f + 2^14) / 2^15) == round(x a / 255)` for every `x` in -255...255.
    static func factor(_ alpha: Int) -> Int16 {
        var least = Int(Int16.min)
        for x in -255 ... 255 where x != 0 {
            // floor((x f + 2^14) / 2^15) == r  <=>  r 2^15 - 2^14 <= x f <= r 2^15 + 2^14 - 1
            let r = floorDivision(2 * x * alpha + 255, 510)
            let low = r * 32768 - 16384
            let high = r * 32768 + 16383
            least = max(least, x > 0 ? ceilingDivision(low, x) : ceilingDivision(-high, -x))
        }
        return Int16(least)
    }

    private static func floorDivision(_ n: Int, _ d: Int) -> Int { n >= 0 ? n / d : -((-n + d - 1) / d) }
    private static func ceilingDivision(_ n: Int, _ d: Int) -> Int { -floorDivision(-n, d) }
}
