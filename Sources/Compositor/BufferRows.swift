/// Read access to a buffer of premultiplied RGBA8 rows that holds target
/// pixels from `(x0, y0)` on, `stride` pixels a row: a group's layer
/// (`LayerFill`) or a blurred backdrop (`BackdropFill`), both read 1:1 at an
/// integer offset. Plain values and a raw pointer, so a fill's `Band` costs no
/// reference counting per row.
struct BufferRows {
    let pixels: UnsafePointer<UInt8>
    let stride: Int, x0: Int, y0: Int

    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> UnsafePointer<UInt8> { pixels + ((y - y0) * stride + (x - x0)) * 4 }
}
