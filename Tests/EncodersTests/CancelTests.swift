import Encoders
import Foundation
import Primitives
import Testing

/// `cancel()` from another thread stops an encoder at any stage at once, even
/// where finishing would take much longer: x264's look-ahead flush at a slow
/// preset, a GIF's second pass, a join. Neither `cancel` nor the `finish` it
/// interrupts waits for a codec call in hand (`WriterThread`): such a call
/// takes about a second here at veryslow on a quiet machine, several on a busy
/// one, and waiting for it is what the 0.5 s bound on the x264 flush catches.
@Suite("Cancelling long stages", .serialized)
struct CancelTests {
    /// Opaque frames of noise in a band (expensive to encode: x264 finds no
    /// good prediction), on a gradient, different every frame.
    static func noisyFrames(width: Int, height: Int, count: Int) -> [Bitmap] {
        var state: UInt32 = 2_463_534_242
        return (0 ..< count).map { _ in
            var pixels = [UInt32](repeating: 0, count: width * height)
            for y in 0 ..< height {
                for x in 0 ..< width {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    let noisy = y > height / 4 && y < height * 3 / 4
                    let grey = UInt32(truncatingIfNeeded: noisy ? state : UInt32(x * 255 / width)) & 0xFF
                    pixels[y * width + x] = 0xFF00_0000 | grey << 16 | (state >> 8 & 0xFF) << 8 | grey
                }
            }
            let bytes = pixels.withUnsafeBytes { [UInt8]($0) }
            return Bitmap(width: width, height: height, premultipliedPixels: bytes)!
        }
    }

    /// Runs `finish()` on this thread while another thread cancels `delay`
    /// seconds in; returns how long finish took after the cancel, and the error.
    static func finishCancelled(
        _ encoder: any FrameEncoder, after delay: Double
    )
        -> (seconds: Double, error: EncoderError?, cancelReturned: Double)
    {
        let timing = CancelTiming()
        let canceller = Thread {
            Thread.sleep(forTimeInterval: delay)
            timing.markCancel()
            encoder.cancel()
            timing.markCancelReturned()
        }
        canceller.start()
        var caught: EncoderError?
        do {
            try encoder.finish()
        } catch let error as EncoderError {
            caught = error
        } catch {}
        let finished = Date()
        while !canceller.isFinished { usleep(1000) }
        return (finished.timeIntervalSince(timing.cancelAt), caught, timing.cancelTook)
    }

    @Test(
        "cancel while x264 at veryslow drains and flushes: finish throws within 0.5 s, no file, target untouched",
        arguments: [1.0, 5.0])
    func cancelX264Flush(delay: Double) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/slow.mp4"
            try writeBytes([9, 9, 9], to: path)
            // veryslow looks 60 frames ahead, so finish() encodes all 48 of these: about 24 s on a quiet
            // 2-core machine (`ffmpeg -preset veryslow` on 48 noise frames; 480x270 took 3.8 s, less than
            // the later cancel's delay), where one x264 call (a frame, or the look-ahead's analysis of the
            // batch) takes seconds. Overwriting allowed: the cancel must still leave the earlier file as it was.
            let settings = VideoSettings(width: 1280, height: 720, framesPerSecond: 30, preset: "veryslow", overwrite: true)
            let encoder = try VideoFileEncoder(path: path, settings: settings)
            let frames = Self.noisyFrames(width: 1280, height: 720, count: 8)
            for index in 0 ..< 48 { try encoder.append(frames[index % frames.count]) }
            let (seconds, error, cancelTook) = Self.finishCancelled(encoder, after: delay)
            #expect(error?.kind == .cancelled, "\(String(describing: error))")
            #expect(seconds < 0.5, "finish returned \(seconds) s after the cancel")
            #expect(cancelTook < 0.5, "cancel() took \(cancelTook) s")
            #expect(try contents(of: dir) == ["slow.mp4"], "no temporary file")
            #expect(try fileBytes(path) == [9, 9, 9], "the target is untouched")
        }
    }

    @Test("cancel during a GIF's second pass: finish throws within 3 s and nothing is left")
    func cancelGIFSecondPass() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/big.gif"
            var settings = VideoSettings(width: 960, height: 540, framesPerSecond: 30)
            settings.gif = GIFOptions(maxWidth: 0, dither: .errorDiffusion)
            let encoder = try GIFEncoder(path: path, settings: settings)
            let frames = Self.noisyFrames(width: 960, height: 540, count: 4)
            for index in 0 ..< 200 { try encoder.append(frames[index % frames.count]) }
            let (seconds, error, cancelTook) = Self.finishCancelled(encoder, after: 1.5)
            #expect(error?.kind == .cancelled, "\(String(describing: error))")
            #expect(seconds < 3, "finish returned \(seconds) s after the cancel")
            #expect(cancelTook < 3, "cancel() took \(cancelTook) s")
            #expect(try contents(of: dir).isEmpty, "no GIF, no temporary file")
        }
    }
}

/// When the cancel came and how long `cancel()` took, shared with the cancelling thread.
final class CancelTiming: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = Date.distantFuture
    private var returned = Date.distantFuture
    var cancelAt: Date { lock.withLock { cancelled } }
    var cancelTook: Double { lock.withLock { returned.timeIntervalSince(cancelled) } }
    func markCancel() { lock.withLock { cancelled = Date() } }
    func markCancelReturned() { lock.withLock { returned = Date() } }
}

extension CancelTests {
    @Test("cancel racing a join leaves the joined video or nothing; cancel first refuses the join")
    func cancelJoin() throws {
        try withTemporaryDirectory { dir in
            let frames = transitionLikeFrames(width: 64, height: 48, count: 24)
            let settings = VideoSettings(width: 64, height: 48, framesPerSecond: 24, encoderThreads: 1)
            let parts = [dir + "/a.mov", dir + "/b.mov", dir + "/c.mov"]
            for (part, range) in zip(parts, [0 ... 7, 8 ... 15, 16 ... 23]) {
                try encodeChunk(frames, range, to: part, settings: settings)
            }
            let early = VideoChunkJoiner(parts: parts, output: dir + "/j.mov")
            early.cancel()
            let refused = try #require(throws: EncoderError.self) { try early.join() }
            #expect(refused.kind == .cancelled)
            #expect(try contents(of: dir) == ["a.mov", "b.mov", "c.mov"])
            for delay: useconds_t in [0, 300, 2000, 10000] {
                let joiner = VideoChunkJoiner(parts: parts, output: dir + "/j.mov", overwrite: true)
                try? FileManager.default.removeItem(atPath: dir + "/j.mov")
                let canceller = Thread {
                    usleep(delay)
                    joiner.cancel()
                }
                canceller.start()
                var failure: EncoderError?
                do { try joiner.join() } catch let error as EncoderError { failure = error }
                while !canceller.isFinished { usleep(1000) }
                let names = try contents(of: dir)
                if let failure {
                    #expect(failure.kind == .cancelled, "\(failure)")
                    #expect(names == ["a.mov", "b.mov", "c.mov"])
                } else {
                    #expect(names == ["a.mov", "b.mov", "c.mov", "j.mov"])
                    #expect(try probe(dir + "/j.mov").int("nb_read_frames") == 24)
                }
            }
        }
    }
}
