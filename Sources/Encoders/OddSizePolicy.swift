/// What an encoder whose pixel format halves the chroma resolution (H.264 in
/// yuv420p) does with an odd width or height. Never a silent crop: either the
/// frame grows by one pixel, filled with the canvas background, and the
/// encoder says so in `FrameEncoder.warnings`, or the encoder refuses with a
/// message that states the fix.
///
/// ProRes 4444 (4:4:4), VP9 (libvpx takes odd sizes), GIF and PNG take any
/// size, so the policy only matters for `.mp4`.
public enum OddSizePolicy: String, Sendable, Hashable, CaseIterable {
    /// Pad on the right and/or at the bottom to the next even size.
    case pad
    /// Throw `.invalidSettings` before anything is written.
    case refuse

    /// The size a chroma-halving codec gets: the size itself, or one more
    /// where a side is odd.
    static func evenSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (width + width % 2, height + height % 2)
    }
}
