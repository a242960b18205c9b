import Synchronization

/// Storage for the textures a renderer makes and drops every frame (a projected
/// item's plane layer and its mip levels), kept between frames for the next.
///
/// Why: fresh blocks of megabytes are mapped by the allocator, faulted in and
/// zeroed page by page by the kernel on first write, and unmapped when freed;
/// for the cube benchmark at two threads that was about a quarter of the time
/// (benchmarks/RESULTS.md). A texture writes every byte it later reads
/// (`Texture.init`), so a reused block needs no clearing and gives the same bytes.
///
/// Bounds: at most `maxFree` blocks wait here, and a request takes a block no
/// more than half again as large as it asks for (new blocks are a quarter
/// larger than asked: a plane turning towards the eye asks for a little more
/// every frame), so what is kept is about one frame's worth. Free blocks are
/// released with the pool (a texture keeps its pool alive until it returns its block).
final class TexturePool: Sendable {
    static let maxFree = 16

    /// Free blocks: address and capacity in bytes.
    private let free = Mutex<[(address: UInt, capacity: Int)]>([])

    /// Blocks waiting to be taken (tests).
    var waiting: Int { free.withLock { $0.count } }

    /// A block of at least `byteCount` bytes (16-byte aligned) and its capacity, to `give` back.
    func take(_ byteCount: Int) -> (UnsafeMutableRawPointer, capacity: Int) {
        let found: (address: UInt, capacity: Int)? = free.withLock { blocks in
            var best: Int?
            for (i, block) in blocks.enumerated()
            where block.capacity >= byteCount && block.capacity - byteCount <= byteCount / 2
                && (best == nil || block.capacity < blocks[best!].capacity) {
                best = i
            }
            return best.map { blocks.remove(at: $0) }
        }
        if let found, let pointer = UnsafeMutableRawPointer(bitPattern: found.address) {
            return (pointer, found.capacity)
        }
        // A quarter more than asked: a plane turning towards the eye asks for a little more every frame.
        let capacity = byteCount + byteCount / 4
        return (.allocate(byteCount: capacity, alignment: 16), capacity)
    }

    /// Takes back a block from `take`; frees it when enough are waiting.
    func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        let kept = free.withLock { blocks in
            guard blocks.count < Self.maxFree else { return false }
            blocks.append((UInt(bitPattern: pointer), capacity))
            return true
        }
        if !kept { pointer.deallocate() }
    }

    deinit {
        free.withLock { blocks in
            for block in blocks { UnsafeMutableRawPointer(bitPattern: block.address)?.deallocate() }
            blocks.removeAll()
        }
    }
}
