import Encoders
import Foundation
import Testing

@Suite("OutputFormat and FrameRate")
struct OutputFormatTests {
    @Test("the path picks the format")
    func detection() throws {
        #expect(try OutputFormat.detect(path: "out/intro.mp4") == .mp4)
        #expect(try OutputFormat.detect(path: "INTRO.MP4") == .mp4)
        #expect(try OutputFormat.detect(path: "out/frames/") == .pngSequence)
        #expect(try OutputFormat.detect(path: FileManager.default.temporaryDirectory.path) == .pngSequence)
        #expect(try OutputFormat.detect(path: "a/b.mov") == .mov)
        #expect(try OutputFormat.detect(path: "a/b.WebM") == .webm)
        #expect(try OutputFormat.detect(path: "b.gif") == .gif)
        #expect(try OutputFormat.detect(path: "out/f_%04d.png") == .pngSequence)
        #expect(try OutputFormat.detect(path: "f_%d.png") == .pngSequence)
        for bad in ["out/%04d/f.png", "f_%s.png", "f_%04d_%d.png"] {
            let error = try #require(throws: EncoderError.self) { try OutputFormat.detect(path: bad) }
            #expect(error.kind == .unsupportedOutput)
        }
        for bad in ["out", "out.mp4.bak", ".mp4", "out.avi"] {
            let error = try #require(throws: EncoderError.self) { try OutputFormat.detect(path: bad) }
            #expect(error.kind == .unsupportedOutput)
            #expect(error.description.contains("'\(bad)'"))
            #expect(error.description.contains(".mp4"))
            #expect(error.description.contains("PNG sequence"))
        }
        let single = try #require(throws: EncoderError.self) { try OutputFormat.detect(path: "out/still.png") }
        #expect(single.reason.contains("out/still_%04d.png"), "\(single.reason)")
    }

    @Test("the factory makes the matching encoder")
    func factory() throws {
        try withTemporaryDirectory { dir in
            let settings = VideoSettings(width: 8, height: 8, framesPerSecond: 30)
            let video = try OutputFormat.encoder(forOutputPath: dir + "/a.mp4", settings: settings)
            #expect(video is VideoFileEncoder)
            video.cancel()
            let frames = try OutputFormat.encoder(forOutputPath: dir + "/seq/", settings: settings)
            #expect(frames is PNGSequenceEncoder)
            frames.cancel()
            #expect(try contents(of: dir).isEmpty)
        }
    }

    @Test(
        "frames per second become exact rationals",
        arguments: [
            (30.0, 30, 1), (24.0, 24, 1), (29.97, 30000, 1001), (23.976, 24000, 1001),
            (59.94, 60000, 1001), (119.88, 120000, 1001), (12.5, 25, 2), (7.5, 15, 2), (0.5, 1, 2),
        ])
    func frameRates(fps: Double, numerator: Int, denominator: Int) throws {
        let rate = try #require(FrameRate(framesPerSecond: fps))
        #expect(rate.numerator == numerator && rate.denominator == denominator, "\(fps) -> \(rate)")
    }

    @Test("unusable rates give nil", arguments: [0.0, -30, .nan, .infinity, 1001])
    func badFrameRates(fps: Double) {
        #expect(FrameRate(framesPerSecond: fps) == nil)
    }

    @Test("rationals are kept reduced")
    func reduced() {
        #expect(FrameRate(numerator: 60, denominator: 2) == FrameRate(numerator: 30, denominator: 1))
        #expect(FrameRate(numerator: 30, denominator: 1)?.duration(ofFrames: 15) == 0.5)
    }

    @Test(
        "a .png path that names no sequence gets a suggestion that is itself a valid pattern",
        arguments: ["out/f_%4d.png", "f%d%d.png", "x.png", "%s.png", "a/b/shot%%.png", "frame_%-3d.png"])
    func patternSuggestionsAreValid(path: String) throws {
        let error = try #require(throws: EncoderError.self) { try OutputFormat.detect(path: path) }
        let quoted = try #require(error.reason.split(separator: "'").dropFirst().first.map(String.init))
        #expect(PNGFrameNaming.pattern(quoted) != nil, "suggested \(quoted)")
        #expect(try OutputFormat.detect(path: quoted) == .pngSequence)
    }
}
