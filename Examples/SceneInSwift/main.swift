// swift-format-ignore-file
// (Its snippets are quoted word for word in README, docs and the DocC catalog: DocumentationSnippetTests.)

// scene-in-swift: renders the README's example scene, built in Swift with no
// JSON (ExampleCard.swift), to the path given as the only argument, in the
// format its extension names: .mp4, .mov, .webm, .gif, a folder (`frames/`),
// a PNG pattern (`f_%04d.png`), or a plain `.png` for a still of the middle
// frame. Exit status: 0 written, 1 invalid scene, 2 usage, 3 output failed.
//
// Arguments are read by hand rather than with swift-argument-parser: there
// is one, and the example should show only what using the library takes.
import Foundation
import ShiftRender

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("scene-in-swift: error: \(message)\n".utf8))
    exit(status)
}

let usage = "usage: scene-in-swift <output>  (.mp4, .mov, .webm, .gif, frames/, f_%04d.png, or still.png)"
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
    print(usage)
    exit(0)
}
guard arguments.count == 1, let output = arguments.first, !output.isEmpty, !output.hasPrefix("-") else {
    fail("expected one output path\n\(usage)", status: 2)
}

/// A `.png` that names no frame pattern is a still; every other path goes to the encoders.
let isStill = output.lowercased().hasSuffix(".png") && (try? OutputFormat.detect(path: output)) == nil

do throws(RenderError) {
    let renderer = try Renderer(scene: ExampleCard.scene())
    if isStill {
        let middle = renderer.frameCount / 2
        try Renderer.writePNG(try renderer.still(.frame(middle)), to: output)
        print("wrote \(output): frame \(middle) of \(renderer.frameCount)")
    } else {
        for warning in try renderer.render(to: output) {
            FileHandle.standardError.write(Data("scene-in-swift: warning: \(warning)\n".utf8))
        }
        print("wrote \(output): \(renderer.frameCount) frames at \(renderer.framesPerSecond) fps")
    }
} catch {
    switch error.kind {
    case .invalidScene: fail(error.message, status: 1)
    case .usage: fail(error.message, status: 2)
    default: fail(error.message, status: 3)
    }
}
