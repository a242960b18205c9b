/// A raw pointer handed to `DispatchQueue.concurrentPerform` workers, each of
/// which writes a disjoint part of the memory (a band of rows, one array slot).
/// The disjointness is what makes the `@unchecked Sendable` sound.
struct SendablePointer<Pointee>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Pointee>
}
