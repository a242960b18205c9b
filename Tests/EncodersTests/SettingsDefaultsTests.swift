import Encoders
import Foundation
import Primitives
import Testing

/// Defaults are stated once, and a CLI can name dithering modes and check loop counts with the module's own values.
@Suite("Settings: defaults, names, ranges")
struct SettingsDefaultsTests {
    @Test("the initializers' defaults are the Defaults")
    func initializersUseDefaults() {
        let settings = VideoSettings(width: 8, height: 8, framesPerSecond: 30)
        #expect(settings.crf == VideoSettings.Defaults.crf && settings.crf == 18)
        #expect(settings.preset == VideoSettings.Defaults.preset)
        #expect(settings.overwrite == VideoSettings.Defaults.overwrite)
        #expect(settings.background == VideoSettings.Defaults.background)
        #expect(settings.oddSize == VideoSettings.Defaults.oddSize)
        #expect(settings.pngCompressionLevel == VideoSettings.Defaults.pngCompressionLevel)
        #expect(settings.encoderThreads == VideoSettings.Defaults.encoderThreads)
        #expect(settings.vp9CRF == VideoSettings.Defaults.vp9CRF)
        #expect(settings.firstFrameNumber == VideoSettings.Defaults.firstFrameNumber)
        #expect(settings.chunk == nil)
        let gif = GIFOptions()
        #expect(gif.maxWidth == GIFOptions.Defaults.maxWidth && gif.maxWidth == 480)
        #expect(gif.maxFramesPerSecond == GIFOptions.Defaults.maxFramesPerSecond)
        #expect(gif.dither == GIFOptions.Defaults.dither && gif.dither == .bayer(scale: 3))
        #expect(gif.loopCount == GIFOptions.Defaults.loopCount)
        #expect(settings.gif == gif)
    }

    @Test("GIFDither is named bayer, sierra and none, and parses those names back")
    func ditherNames() {
        #expect(GIFDither.allCases.map(\.description) == ["bayer", "sierra", "none"])
        #expect(GIFDither.allCases.map { GIFDither($0.description) } == GIFDither.allCases)
        #expect(GIFDither("bayer") == .bayer(scale: GIFDither.defaultBayerScale))
        #expect(GIFDither("sierra") == .errorDiffusion)
        #expect(GIFDither("none") == GIFDither.none)
        #expect(GIFDither("bayer:1") == .bayer(scale: 1))
        #expect(GIFDither.bayer(scale: 1).description == "bayer:1")
        for text in ["Bayer", "floyd", "bayer:9", "bayer:-1", "bayer:", ""] { #expect(GIFDither(text) == nil, "\(text)") }
    }

    @Test(
        "GIF loop counts: -1 through 65535 are taken, 65536 and -2 refused (GIF stores 16 bits)",
        arguments: [(-2, false), (-1, true), (0, true), (65535, true), (65536, false)])
    func loopCount(count: Int, accepted: Bool) throws {
        #expect(GIFOptions.loopCountRange.contains(count) == accepted)
        try withTemporaryDirectory { dir in
            var settings = VideoSettings(width: 8, height: 8, framesPerSecond: 10)
            settings.gif.loopCount = count
            do {
                let encoder = try GIFEncoder(path: dir + "/loop.gif", settings: settings)
                encoder.cancel()
                #expect(accepted, "\(count) was taken")
            } catch let error as EncoderError {
                #expect(!accepted, "\(error)")
                #expect(error.kind == .invalidSettings)
                #expect(error.reason.contains("GIF loop count \(count) is outside -1...65535"), "\(error.reason)")
            }
            #expect(try contents(of: dir).isEmpty)
        }
    }
}
