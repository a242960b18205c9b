/// PNG's five row filters (specification section 9), encode side, for
/// `PNGFrameWriter`; each fast kernel has a plain `reference` twin that a test
/// compares it with at every length, first row or not, 3 and 4 bytes a pixel.
///
/// A filter maps byte `x` of a row to `x - predictor`, modulo 256, where the
/// predictor comes from `a` (the byte one pixel to the left, 0 in the first
/// pixel), `b` (the byte above, 0 in the first row) and `c` (above `a`). On the
/// encode side every input is an unfiltered byte, so, unlike decoding, there
/// is no dependency along the row and whole vectors go at once: 32 bytes a
/// step; Paeth, whose distances need 16-bit lanes, as the even and the odd
/// bytes of the 32. Each kernel also returns the row's sum of
/// |filtered byte| read as a signed byte: the "minimum sum of absolute
/// differences" heuristic that picks a row's filter (libpng's, and the
/// specification's suggestion).
enum PNGRowFilter: UInt8, CaseIterable, Sendable {
    case none = 0
    case sub = 1
    case up = 2
    case average = 3
    case paeth = 4

    typealias Bytes32 = SIMD32<UInt8>

    /// Filters `count` bytes of `current` into `output` (not the filter byte)
    /// and returns the sum of |output byte as Int8|. `previous` is the row
    /// above, or all zeros for the first row (the predictor's 0); `bpp` is 3
    /// or 4. `output` must not overlap the inputs.
    func apply(
        _ current: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>,
        count: Int, bpp: Int
    ) -> Int {
        switch self {
        case .none:
            output.update(from: current, count: count)
            return Self.absoluteSum(current, count: count)
        case .sub: return Self.sub(current, into: output, count: count, bpp: bpp)
        case .up: return Self.up(current, previous: previous, into: output, count: count)
        case .average: return Self.average(current, previous: previous, into: output, count: count, bpp: bpp)
        case .paeth: return Self.paeth(current, previous: previous, into: output, count: count, bpp: bpp)
        }
    }

    // MARK: Fast kernels
    //
    // Bytes are loaded, stored, added and subtracted as 32 x UInt8; everything
    // else (bitwise operators, shifts, minimum, comparisons) works on the same 32
    // bytes as 16 x Int16, each lane an even byte (low) and an odd byte (high).
    // Swift 6.3 lowers those operators on 8-bit lanes to lane-by-lane loops
    // (about 10x the instructions of one AVX2 operation, measured with
    // callgrind), and on 16-bit lanes to single instructions.

    typealias Wide16 = SIMD16<Int16>

    @inline(__always)
    static func wide(_ v: Bytes32) -> Wide16 { unsafeBitCast(v, to: Wide16.self) }

    @inline(__always)
    static func bytes(_ v: Wide16) -> Bytes32 { unsafeBitCast(v, to: Bytes32.self) }

    /// The total of 16 lanes holding 0...32767.
    @inline(__always)
    static func total(_ lanes: Wide16) -> Int {
        let words = unsafeBitCast(lanes, to: SIMD8<UInt32>.self)
        let sums = (words & 0xFFFF) &+ (words &>> 16)
        let quads = unsafeBitCast(sums, to: SIMD4<UInt64>.self)
        let pairs = (quads & 0xFFFF_FFFF) &+ (quads &>> 32)
        return Int(pairs[0] &+ pairs[1] &+ pairs[2] &+ pairs[3])
    }

    /// Sums |byte as Int8| over 32-byte steps: the even and the odd bytes' (each
    /// min(x, 256 - x), at most 128) into 16-bit lanes, at most 256 a step,
    /// totalled every 127 steps, before a lane could pass 32767.
    struct MagnitudeSum {
        var lanes = Wide16()
        var steps = 0
        var sum = 0

        @inline(__always)
        mutating func add(_ v: Bytes32) {
            let pairs = PNGRowFilter.wide(v)
            let even = pairs & 0xFF
            let odd = (pairs &>> 8) & 0xFF
            lanes &+= pointwiseMin(even, 256 &- even) &+ pointwiseMin(odd, 256 &- odd)
            steps &+= 1
            if steps == 127 { flush() }
        }

        @inline(__always)
        mutating func flush() {
            sum &+= PNGRowFilter.total(lanes)
            lanes = Wide16()
            steps = 0
        }

        mutating func result() -> Int {
            flush()
            return sum
        }
    }

    @inline(__always)
    static func magnitude(_ byte: UInt8) -> Int { Int(min(byte, 0 &- byte)) }

    static func absoluteSum(_ row: UnsafePointer<UInt8>, count: Int) -> Int {
        var sum = MagnitudeSum()
        var i = 0
        while i &+ 32 <= count {
            sum.add(UnsafeRawPointer(row + i).loadUnaligned(as: Bytes32.self))
            i &+= 32
        }
        var total = sum.result()
        while i < count {
            total &+= magnitude(row[i])
            i &+= 1
        }
        return total
    }

    static func sub(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int, bpp: Int) -> Int {
        var total = 0
        var i = 0
        while i < min(bpp, count) {
            out[i] = row[i]
            total &+= magnitude(out[i])
            i &+= 1
        }
        var sum = MagnitudeSum()
        let raw = UnsafeRawPointer(row)
        while i &+ 32 <= count {
            let v =
                raw.loadUnaligned(fromByteOffset: i, as: Bytes32.self)
                &- raw.loadUnaligned(fromByteOffset: i &- bpp, as: Bytes32.self)
            UnsafeMutableRawPointer(out).storeBytes(of: v, toByteOffset: i, as: Bytes32.self)
            sum.add(v)
            i &+= 32
        }
        total &+= sum.result()
        while i < count {
            out[i] = row[i] &- row[i &- bpp]
            total &+= magnitude(out[i])
            i &+= 1
        }
        return total
    }

    static func up(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int
    ) -> Int {
        var sum = MagnitudeSum()
        let raw = UnsafeRawPointer(row)
        let above = UnsafeRawPointer(previous)
        var i = 0
        while i &+ 32 <= count {
            let v =
                raw.loadUnaligned(fromByteOffset: i, as: Bytes32.self)
                &- above.loadUnaligned(fromByteOffset: i, as: Bytes32.self)
            UnsafeMutableRawPointer(out).storeBytes(of: v, toByteOffset: i, as: Bytes32.self)
            sum.add(v)
            i &+= 32
        }
        var total = sum.result()
        while i < count {
            out[i] = row[i] &- previous[i]
            total &+= magnitude(out[i])
            i &+= 1
        }
        return total
    }

    /// floor((a + b) / 2) without a ninth bit: (a & b) + ((a ^ b) >> 1).
    static func average(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        count: Int, bpp: Int
    ) -> Int {
        var total = 0
        var i = 0
        while i < min(bpp, count) {
            out[i] = row[i] &- (previous[i] &>> 1)
            total &+= magnitude(out[i])
            i &+= 1
        }
        var sum = MagnitudeSum()
        let raw = UnsafeRawPointer(row)
        let above = UnsafeRawPointer(previous)
        while i &+ 32 <= count {
            let a = raw.loadUnaligned(fromByteOffset: i &- bpp, as: Bytes32.self)
            let b = above.loadUnaligned(fromByteOffset: i, as: Bytes32.self)
            // (a ^ b) >> 1 per byte: the 16-bit shift, less the bit it moves across bytes.
            let halfDifference = bytes(((wide(a) ^ wide(b)) &>> 1) & 0x7F7F)
            let v = raw.loadUnaligned(fromByteOffset: i, as: Bytes32.self) &- (bytes(wide(a) & wide(b)) &+ halfDifference)
            UnsafeMutableRawPointer(out).storeBytes(of: v, toByteOffset: i, as: Bytes32.self)
            sum.add(v)
            i &+= 32
        }
        total &+= sum.result()
        while i < count {
            let a = UInt16(row[i &- bpp])
            let b = UInt16(previous[i])
            out[i] = row[i] &- UInt8((a + b) >> 1)
            total &+= magnitude(out[i])
            i &+= 1
        }
        return total
    }

    /// Paeth's predictor in 16-bit lanes, 32 bytes a step as their even and odd
    /// bytes: the one of a, b, c nearest to a + b - c, ties to a, then b
    /// (pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|).
    static func paeth(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        count: Int, bpp: Int
    ) -> Int {
        var total = 0
        var i = 0
        // The first pixel: a = c = 0, so the predictor is b.
        while i < min(bpp, count) {
            out[i] = row[i] &- previous[i]
            total &+= magnitude(out[i])
            i &+= 1
        }
        var sum = MagnitudeSum()
        let raw = UnsafeRawPointer(row)
        let above = UnsafeRawPointer(previous)
        while i &+ 32 <= count {
            let a = raw.loadUnaligned(fromByteOffset: i &- bpp, as: Wide16.self)
            let b = above.loadUnaligned(fromByteOffset: i, as: Wide16.self)
            let c = above.loadUnaligned(fromByteOffset: i &- bpp, as: Wide16.self)
            let even = paethPrediction(a & 0xFF, b & 0xFF, c & 0xFF)
            let odd = paethPrediction((a &>> 8) & 0xFF, (b &>> 8) & 0xFF, (c &>> 8) & 0xFF)
            let predicted = bytes(even | (odd &<< 8))
            let v = raw.loadUnaligned(fromByteOffset: i, as: Bytes32.self) &- predicted
            UnsafeMutableRawPointer(out).storeBytes(of: v, toByteOffset: i, as: Bytes32.self)
            sum.add(v)
            i &+= 32
        }
        total &+= sum.result()
        while i < count {
            out[i] = row[i] &- paethReference(row[i &- bpp], previous[i], previous[i &- bpp])
            total &+= magnitude(out[i])
            i &+= 1
        }
        return total
    }

    /// The predictor of 16 lanes holding 0...255; comparisons as the sign of a
    /// difference (all ones when negative), selections by and/or.
    @inline(__always)
    static func paethPrediction(_ a: Wide16, _ b: Wide16, _ c: Wide16) -> Wide16 {
        let toB = b &- c
        let toA = a &- c
        let sum = toA &+ toB
        let pa = (toB ^ (toB &>> 15)) &- (toB &>> 15)
        let pb = (toA ^ (toA &>> 15)) &- (toA &>> 15)
        let pc = (sum ^ (sum &>> 15)) &- (sum &>> 15)
        let notB = (pc &- pb) &>> 15  // pb > pc: c rather than b
        let bOrC = (c & notB) | (b & ~notB)
        let notA = ((pb &- pa) | (pc &- pa)) &>> 15  // pa > pb or pa > pc
        return (bOrC & notA) | (a & ~notA)
    }

    /// How many of `count` bytes equal the byte one pixel (`bpp` bytes) to
    /// their left: `count - bpp` when the row is one colour. Counted negated in
    /// 16-bit lanes ((x - 1) >> 15 is -1 for x = 0, else 0, for x in 0...255),
    /// at most 2 a step, totalled every 16383 steps.
    static func repeatedByteCount(_ row: UnsafePointer<UInt8>, count: Int, bpp: Int) -> Int {
        let raw = UnsafeRawPointer(row)
        var lanes = Wide16()
        var steps = 0
        var total = 0
        var i = bpp
        while i &+ 32 <= count {
            let difference =
                raw.loadUnaligned(fromByteOffset: i, as: Wide16.self)
                ^ raw.loadUnaligned(fromByteOffset: i &- bpp, as: Wide16.self)
            let even = difference & 0xFF
            let odd = (difference &>> 8) & 0xFF
            lanes &+= ((even &- 1) &>> 15) &+ ((odd &- 1) &>> 15)
            steps &+= 1
            if steps == 16383 {
                total &+= Self.total(0 &- lanes)
                lanes = Wide16()
                steps = 0
            }
            i &+= 32
        }
        total &+= Self.total(0 &- lanes)
        while i < count {
            if row[i] == row[i &- bpp] { total &+= 1 }
            i &+= 1
        }
        return total
    }

    // MARK: References

    /// The predictor as the specification writes it (section 9.4).
    static func paethReference(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a))
        let pb = abs(p - Int(b))
        let pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// `apply`, byte by byte, as the specification defines the filters.
    func reference(
        _ current: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>,
        count: Int, bpp: Int
    ) -> Int {
        var total = 0
        for i in 0 ..< count {
            let a = i >= bpp ? Int(current[i - bpp]) : 0
            let b = Int(previous[i])
            let c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch self {
            case .none: predictor = 0
            case .sub: predictor = a
            case .up: predictor = b
            case .average: predictor = (a + b) / 2
            case .paeth: predictor = Int(Self.paethReference(UInt8(a), UInt8(b), UInt8(c)))
            }
            let filtered = UInt8((Int(current[i]) - predictor) & 0xFF)
            output[i] = filtered
            total += abs(Int(Int8(bitPattern: filtered)))
        }
        return total
    }

    /// `repeatedByteCount`, byte by byte.
    static func repeatedByteCountReference(_ row: UnsafePointer<UInt8>, count: Int, bpp: Int) -> Int {
        var total = 0
        for i in 0 ..< count where i >= bpp && row[i] == row[i - bpp] {
            total += 1
        }
        return total
    }
}
