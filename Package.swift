// swift-tools-version:6.0
// shiftrender: renders Shift-style UI transitions to video and image sequences.
//
// Stages, each a module whose imports point only downward:
//   shiftrender (CLI) -> Encoders, Compositor, TransitionEngine, SceneFormat, OutputFiles
//   TransitionEngine -> SceneFormat, FramePlan
//   Compositor -> FramePlan + CPrefetch   (the frame plan is all it knows of the engine)
//   Encoders -> Primitives + C shims + OutputFiles   (they know only frames)
//   Studio -> ShiftRender, OutputFiles (the `studio` command's server, on the C library's sockets; page in Resources/)
//   OutputFiles -> the C library only  (atomic outputs, for every stage and the CLI)
//   SceneFormat -> SceneModel -> Timing, Primitives   (Timing: curves and springs, pure math)
//   SceneFormat -> PNGCodec -> Primitives
//   ShiftRender -> JPEGCodec -> Primitives (scene images; frames are never JPEG)
//   TextLayout -> SceneModel, Primitives + FreeType, HarfBuzz, fontconfig, FriBidi, libunibreak
// C lives only in the system-library targets (CLibPNG, CLibDeflate, CLibJPEG, CFFmpeg, and the
// text libraries CFreeType, CHarfBuzz, CFontconfig, CFriBidi, CUnibreak), the
// thin CFFmpegShim, CPNGShim and CJPEGShim, and CPrefetch (one inline function).
import Foundation
import PackageDescription

// Release builds target the build machine's class of x86-64 CPU when it is one
// of two: Haswell (AVX2, FMA, BMI2), or one with AVX-512 (F, BW, CD, DQ, VL),
// where the compositor gains 32 registers, masked and three-input logic
// instructions, and its hottest loops take sixteen pixels a vector instead of
// eight: Swift SIMD otherwise compiles to SSE2, and a packed-pixel blend
// measured 2.7x faster for Haswell; the AVX-512 target draws the benchmark
// transition about 1.1x faster again, and its sixteen-pixel loops 1.1x more,
// the same bytes (benchmarks/RESULTS.md). AMD's AVX-512 CPUs get `znver4`, LLVM's tuning for
// them; Intel's `skylake-avx512`, the feature set every Intel AVX-512 CPU
// since Skylake has. Debug builds stay on the baseline, but for the
// compositor (below). Set SHIFTRENDER_PORTABLE=1 for binaries that run on any
// x86-64, or SHIFTRENDER_TARGET_CPU to choose one with AVX2 (`haswell` for
// valgrind, which cannot run AVX-512 code).
let hostTargetCPU: String? = {
    #if arch(x86_64) && os(Linux)
    if let chosen = Context.environment["SHIFTRENDER_TARGET_CPU"], Context.environment["SHIFTRENDER_PORTABLE"] == nil {
        return chosen.isEmpty ? nil : chosen
    }
    guard Context.environment["SHIFTRENDER_PORTABLE"] == nil,
          let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    else { return nil }
    let lines = cpuinfo.split(separator: "\n")
    func field(_ name: String) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix(name) }), let colon = line.firstIndex(of: ":") else { return nil }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let flags = Set((field("flags") ?? "").split(separator: " ").map(String.init))
    guard ["avx2", "fma", "bmi2", "movbe", "f16c"].allSatisfy(flags.contains) else { return nil }
    guard ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"].allSatisfy(flags.contains) else { return "haswell" }
    // Family 25 (0x19) is Zen 3 and Zen 4; of them only Zen 4 has AVX-512, and later families have its features.
    let amdZen4OrLater = field("vendor_id") == "AuthenticAMD" && (Int(field("cpu family") ?? "") ?? 0) >= 25
    return amdZen4OrLater ? "znver4" : "skylake-avx512"
    #else
    return nil
    #endif
}()
let fastReleaseSettings: [SwiftSetting] = hostTargetCPU.map { [.unsafeFlags(["-target-cpu", $0], .when(configuration: .release))] } ?? []
// The compositor also uses AVX2 intrinsics where Swift SIMD has no form for an
// instruction (`SHIFTRENDER_AVX2`: Sources/Compositor/TexelWindows.swift). It
// is built for the same CPU in debug builds too, so that `swift test` runs the code
// the release binary runs; its tests call the portable forms explicitly.
// On the AVX-512 targets its hottest loops also take sixteen pixels a vector
// (`SHIFTRENDER_AVX512`: Sources/Compositor/WidePixelVectors.swift).
let compositorSettings: [SwiftSetting] = hostTargetCPU.map { cpu in
    [.unsafeFlags(["-target-cpu", cpu]), .define("SHIFTRENDER_AVX2")]
        + (["skylake-avx512", "znver4"].contains(cpu) ? [.define("SHIFTRENDER_AVX512")] : [])
} ?? []

let package = Package(
    name: "shiftrender",
    products: [
        .executable(name: "shiftrender", targets: ["shiftrender"]),
        // The library: scenes in Swift or JSON, rendered with one call (`import ShiftRender`).
        .library(name: "ShiftRender", targets: ["ShiftRender"]),
        // Golden-image checks for users' own XCTest / Swift Testing suites (`import GoldenImages`).
        .library(name: "GoldenImages", targets: ["GoldenImages"]),
        // The README's example scene built in Swift and rendered (Examples/SceneInSwift).
        .executable(name: "scene-in-swift", targets: ["scene-in-swift"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target ShiftRender` (DocC); a command
        // plugin, so ordinary builds compile none of it (measured in docs/swift-api.md).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "Primitives", swiftSettings: fastReleaseSettings),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavfilter libavutil libswscale",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev"])]
        ),
        .target(name: "CFFmpegShim", dependencies: ["CFFmpeg"]),
        // One-shot deflate for the PNG frame writer (Sources/PNGCodec/PNGFrameWriter.swift says why).
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .target(name: "CPNGShim", dependencies: ["CLibPNG"]),
        .target(
            name: "PNGCodec", dependencies: ["Primitives", "CLibPNG", "CPNGShim", "CLibDeflate"],
            swiftSettings: fastReleaseSettings
        ),
        // Scene images in JPEG; C only in the shim (libjpeg's errors leave by longjmp).
        .target(name: "CJPEGShim", dependencies: ["CLibJPEG"]),
        .target(name: "JPEGCodec", dependencies: ["Primitives", "CJPEGShim"]),
        // Curves and springs as pure math, below the scene (which holds and checks them) and the engine.
        .target(name: "Timing"),
        .target(name: "SceneModel", dependencies: ["Primitives", "Timing"]),
        // Text as UILabel sets it (docs/text.md): one system library per job.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),
        .target(
            name: "TextLayout",
            dependencies: ["SceneModel", "Primitives", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi", "CUnibreak"]
        ),
        .target(name: "SceneFormat", dependencies: ["Primitives", "SceneModel"]),
        .target(name: "FramePlan", dependencies: ["Primitives"]),
        .target(name: "TransitionEngine", dependencies: ["SceneFormat", "FramePlan", "Primitives", "Timing"]),
        // A cache prefetch, which Swift cannot spell (Sources/Compositor/Sampling.swift says why it pays).
        .systemLibrary(name: "CPrefetch"),
        .target(name: "Compositor", dependencies: ["FramePlan", "Primitives", "CPrefetch"], swiftSettings: compositorSettings),
        .target(name: "OutputFiles"),
        .target(name: "Encoders", dependencies: ["Primitives", "PNGCodec", "CFFmpegShim", "OutputFiles"]),
        .target(
            name: "ShiftRender",
            dependencies: [
                "Primitives", "SceneModel", "SceneFormat", "TransitionEngine", "FramePlan", "Compositor", "Encoders", "PNGCodec",
                "JPEGCodec", "TextLayout", "OutputFiles",
            ]
        ),
        // Golden-image checks; above the library, since it renders scenes through it.
        .target(name: "GoldenImages", dependencies: ["ShiftRender", "Primitives", "PNGCodec", "OutputFiles"]),
        // Encoder throughput and peak-memory probe; the memory tests run it as a child process.
        .executableTarget(
            name: "encoders-bench",
            dependencies: ["Encoders", "Primitives", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/EncodersBench"
        ),
        // Holds an output open until killed; the sweeping tests run it as a child process.
        .executableTarget(name: "output-files-probe", dependencies: ["OutputFiles"], path: "Sources/OutputFilesProbe"),
        // `shiftrender studio`: the scene watched and served to a browser page (its HTML, CSS and JS are resources).
        .target(
            name: "Studio",
            dependencies: ["ShiftRender", "OutputFiles"],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "shiftrender",
            dependencies: [
                "ShiftRender", "FramePlan", "Compositor", "PNGCodec", "GoldenImages", "OutputFiles", "Studio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scene-in-swift", dependencies: ["ShiftRender"], path: "Examples/SceneInSwift"),
        // The benchmark harness (benchmarks/README.md): run through benchmarks/run.sh, never by the tests.
        .executableTarget(
            name: "shiftrender-bench",
            // Compositor and FramePlan: a display list drawn without some kinds of item (`measure --skip`),
            // the reduced plan the peers also draw.
            dependencies: [
                "ShiftRender", "Compositor", "FramePlan", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "benchmarks/Harness"
        ),
        .testTarget(name: "PrimitivesTests", dependencies: ["Primitives"]),
        .testTarget(name: "TimingTests", dependencies: ["Timing"]),
        .testTarget(name: "SceneModelTests", dependencies: ["SceneModel", "Primitives"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout", "SceneModel", "Primitives", "PNGCodec", "CFreeType"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "SceneModel", "ShiftRender", "Primitives"]),
        .testTarget(name: "TransitionEngineTests", dependencies: ["TransitionEngine", "SceneModel", "FramePlan", "Primitives"]),
        // Built as the compositor is, so that its tests can reach the sixteen-pixel forms (`SHIFTRENDER_AVX512`).
        .testTarget(
            name: "CompositorTests", dependencies: ["Compositor", "FramePlan", "Primitives"], swiftSettings: compositorSettings),
        .testTarget(
            name: "EncodersTests",
            dependencies: ["Encoders", "PNGCodec", "Primitives", "CPNGShim", "CLibDeflate", "CFFmpegShim", "encoders-bench"]
        ),
        .testTarget(name: "OutputFilesTests", dependencies: ["OutputFiles", "output-files-probe"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Primitives", "PNGCodec"]),
        .testTarget(name: "GoldenImagesTests", dependencies: ["GoldenImages", "Primitives", "PNGCodec"]),
        .testTarget(name: "GoldenTests", dependencies: ["GoldenImages", "ShiftRender"]),
        // The library as users meet it: the example's scene and executable, the DocC tutorial's code.
        // The studio's server over real sockets: every endpoint, the refusals, live reloads.
        .testTarget(name: "StudioTests", dependencies: ["Studio", "ShiftRender", "PNGCodec"]),
        .testTarget(name: "ShiftRenderTests", dependencies: ["ShiftRender", "GoldenImages", "PNGCodec", "JPEGCodec", "scene-in-swift"]),
    ]
)
