// swift-format-ignore-file
// (Its snippets are quoted word for word in README, docs and the DocC catalog: DocumentationSnippetTests.)

import Foundation
import ShiftRender

/// The README's example, fixtures/scenes/example-card.json, written in Swift
/// with no JSON: a list screen whose card opens into a detail screen. The
/// card, poster and title are matched by `shift.id`; the star rides inside
/// the poster; the body rows fade and move up in the transition container.
///
/// It builds the very same `Scene` value the decoder makes of the file (a
/// test compares them with `==`): images are named as the file names them,
/// relative to fixtures/scenes, and `directory` is that folder. The folder
/// is found from this source file's path (`#filePath`), so the example runs
/// from any working directory as long as the checkout it was built from is
/// still there; images given as `.encoded` bytes would need the same files
/// read at run time, so `.file` keeps the scene identical to the JSON's.
enum ExampleCard {
    /// fixtures/scenes in the package this example was built from.
    static var fixtureScenesDirectory: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Examples/SceneInSwift
            .deletingLastPathComponent()  // Examples
            .deletingLastPathComponent()  // the package
            .appendingPathComponent("fixtures/scenes")
            .standardizedFileURL.path
    }

    static let poster = ImageSource.file("../images/poster.png")
    static let star = ImageSource.file("../images/star.png")
    static let groupedBackground = RGBAColor(rgb: 0xF2F2F7)
    static let label = RGBAColor(rgb: 0x1C1C1E)
    static let secondaryLabel = RGBAColor(rgb: 0x8E8E93)
    static let accent = RGBAColor(rgb: 0xFF6A3D)

    /// The scene, its relative image paths resolved against `directory`.
    static func scene(imagesFrom directory: String = fixtureScenesDirectory) -> Scene {
        Scene(canvas: CanvasSpec(width: 390, height: 844), from: listScreen, to: detailScreen, directory: directory)
            .baselineDuration(0.4)
    }

    static var listScreen: View {
        View(name: "list screen") {
            View(name: "header", frame: Rect(x: 0, y: 0, width: 390, height: 110)) {
                View(name: "header title", frame: Rect(x: 20, y: 56, width: 300, height: 41))
                    .text("Library", font: FontSpec(size: 34, weight: .bold), color: label)
            }
            .backgroundColor(.white)
            View(name: "card", frame: Rect(x: 20, y: 140, width: 350, height: 130)) {
                View(name: "thumbnail", frame: Rect(x: 12, y: 12, width: 72, height: 106))
                    .image(poster).contentMode(.aspectFill).cornerRadius(10).masksToBounds()
                    .shift(id: "poster")
                View(name: "card title", frame: Rect(x: 100, y: 22, width: 236, height: 24))
                    .text("Kind of Blue", font: FontSpec(textStyle: .headline), color: label)
                    .shift(id: "title")
                View(name: "card subtitle", frame: Rect(x: 100, y: 50, width: 236, height: 20))
                    .text("Miles Davis · 1959", font: FontSpec(textStyle: .subheadline), color: secondaryLabel)
            }
            .backgroundColor(.white).cornerRadius(16)
            .shift(id: "card")
            for (number, y) in zip(2..., [290.0, 440, 590]) {
                View(name: "row \(number)", frame: Rect(x: 20, y: y, width: 350, height: 130))
                    .backgroundColor(.white).cornerRadius(16)
            }
        }
        .backgroundColor(groupedBackground)
    }

    static var detailScreen: View {
        View(name: "detail screen") {
            View(name: "background card", frame: Rect(x: 0, y: 0, width: 390, height: 844))
                .backgroundColor(.white)
                .shift(id: "card")
            View(name: "poster", frame: Rect(x: 0, y: 0, width: 390, height: 520)) {
                View(name: "star", frame: Rect(x: 167, y: 40, width: 56, height: 56))
                    .image(star).contentMode(.aspectFit)
                    .shift(animations: [.fade, .scale(0.2)])
            }
            .image(poster).contentMode(.aspectFill).masksToBounds()
            .shift(id: "poster")
            View(name: "title", frame: Rect(x: 24, y: 544, width: 342, height: 40))
                .text("Kind of Blue", font: FontSpec(size: 28, weight: .bold), color: label)
                .shift(id: "title")
            bodyRow("body 1", Rect(x: 24, y: 596, width: 342, height: 20), rise: 80)
                .text("Miles Davis · Columbia, 1959", font: FontSpec(textStyle: .callout), color: secondaryLabel)
            bodyRow("body 2", Rect(x: 24, y: 622, width: 300, height: 20), rise: 120)
                .text("Five tracks · 46 minutes", font: FontSpec(textStyle: .callout), color: secondaryLabel)
            bodyRow("play button", Rect(x: 24, y: 680, width: 342, height: 52), rise: 160)
                .backgroundColor(accent).cornerRadius(26)
                .text("Play", font: FontSpec(size: 17, weight: .semibold), color: .white, alignment: .center)
        }
        .backgroundColor(.white)
    }

    /// A row that animates on its own in the transition container, fading
    /// in as it rises `rise` points into place (Shift's `.move(.up(n))`).
    static func bodyRow(_ name: String, _ frame: Rect, rise: Double) -> View {
        View(name: name, frame: frame)
            .shift(superview: .container, animations: [.fade, .move(.up(rise))])
    }
}
