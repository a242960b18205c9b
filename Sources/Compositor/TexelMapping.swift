import Primitives

/// Maps target pixels to a texture's texel space for a `.bitmap` paint: the
/// texture's full extent covers `shape.rect`, texel centres sit at
/// `(i + 0.5) / width` of the rectangle, so target pixel `(x, y)` (index)
/// samples texel coordinate `s = a*x + c*y + tx`, `t = b*x + d*y + ty`, where
/// integer `(s, t)` is a texel centre.
struct TexelMapping: Sendable {
    let map: AffineTransform2D
    let sa: Float, sb: Float
    let sourceWidth: Int, sourceHeight: Int

    /// Nil for an empty source, a degenerate rectangle, or a non-invertible transform.
    init?(transform: AffineTransform2D, rect: Rect, sourceWidth: Int, sourceHeight: Int) {
        // Coordinates stay below 2^22 (the float rounding trick) and byte offsets in Int32.
        guard sourceWidth > 0, sourceHeight > 0, sourceWidth < 1 << 22, sourceHeight < 1 << 22,
            (sourceWidth + 1) * (sourceHeight + 1) < Int(Int32.max) / 4,
            rect.width > 0, rect.height > 0,
            let inv = transform.inverted
        else { return nil }
        let kx = Double(sourceWidth) / rect.width
        let ky = Double(sourceHeight) / rect.height
        // local = inv(x + 0.5, y + 0.5); s = (local.x - minX) * kx - 0.5.
        let a = inv.a * kx
        let c = inv.c * kx
        let b = inv.b * ky
        let d = inv.d * ky
        let tx = (inv.tx - rect.minX) * kx - 0.5 + 0.5 * (a + c)
        let ty = (inv.ty - rect.minY) * ky - 0.5 + 0.5 * (b + d)
        map = AffineTransform2D(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
        guard [a, b, c, d, tx, ty].allSatisfy({ $0.isFinite && abs($0) < 1e15 }) else { return nil }
        sa = Float(a)
        sb = Float(b)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    /// The mapping onto the mip level of `chain` that suits this item's scale,
    /// and that level (see `MipChain`).
    static func forChain(_ chain: MipChain, transform: AffineTransform2D, rect: Rect) -> (TexelMapping, Texture)? {
        guard
            let full = TexelMapping(
                transform: transform, rect: rect,
                sourceWidth: chain.width, sourceHeight: chain.height)
        else { return nil }
        let (lx, ly) = full.levelIndices
        if lx == 0 && ly == 0 { return (full, chain.base) }
        let texture = chain.level(lx, ly)
        guard
            let mapping = TexelMapping(
                transform: transform, rect: rect,
                sourceWidth: texture.width, sourceHeight: texture.height)
        else { return nil }
        return (mapping, texture)
    }

    /// The mip level this mapping reads from (`MipChain.levelIndices`).
    var levelIndices: (Int, Int) {
        MipChain.levelIndices(
            texelsPerPixelX: (map.a * map.a + map.c * map.c).squareRoot(),
            texelsPerPixelY: (map.b * map.b + map.d * map.d).squareRoot(),
            width: sourceWidth, height: sourceHeight)
    }

    /// No rotation or shear: `s` depends on x only and `t` on y only, so texel
    /// columns and weights can be tabulated once per item (`prepareColumns`).
    var isSeparable: Bool { map.b == 0 && map.c == 0 }

    /// Target pixel `x` reads texel column `x + copyOffsetX` of texel row
    /// `y + copyOffsetY` exactly (unit scale, integer texel offset): a copy.
    var copyOffset: (x: Int, y: Int)? {
        guard map.a == 1, map.b == 0, map.c == 0, map.d == 1,
            map.tx == map.tx.rounded(), map.ty == map.ty.rounded()
        else { return nil }
        return (Int(map.tx), Int(map.ty))
    }
}
