import Primitives
import SceneModel
import Timing

/// `transition.presentation` as root motions (docs/navigation.md): the
/// presented root (`to` on present, `from` on dismiss) is placed by its own
/// `frame` and rounded by its `cornerRadius`; the styles move it and the
/// presenting root; the dimming is a full-canvas layer between them.
extension RootMotions {
    /// The page sheet's presenting root at the sheet's full height (ours: iOS draws the screen behind a page
    /// sheet about 8% smaller with rounded corners; UIKit publishes neither number).
    static let sheetBehindScale = 0.92
    static let sheetBehindCornerRadius = 10.0
    /// EasyTransitions' PresentationControllerAnimator: 1.0 s on UIViewPropertyAnimator(dampingRatio: 0.8).
    static let cardTiming = TimingOptions(duration: 1.0, curve: .spring(.dampingRatio(0.8)))
    /// Ours for the sheet: SwiftUI's default spring (response 0.5, dampingFraction 0.825), which settles in
    /// 0.69 s, close to UIKit's sheet.
    static let sheetTiming = TimingOptions(curve: .spring(.swiftUIDefault))

    static func presentation(
        _ presentation: PresentationSpec, isPresenting: Bool, canvas: Size, presentedFrame: Rect?
    ) -> RootMotions {
        var motions = RootMotions()
        // From below the canvas: the presented root's top edge starts at the canvas's bottom.
        let top = presentedFrame?.minY ?? 0
        let rise = PropertyChange.move(dx: 0, dy: canvas.height - top)
        var presented: [PropertyChange] = []
        var presenting: [PropertyChange] = []
        switch presentation.style {
        case .sheet:
            presented = [rise]
            presenting = [.scale(sheetBehindScale), .cornerRadius(sheetBehindCornerRadius)]
            motions.timing = sheetTiming
        case .card:
            presented = [rise]
            motions.timing = cardTiming
        case .overFullScreen:
            break
        }
        if isPresenting {
            (motions.arriving.changes, motions.leaving.changes) = (presented, presenting)
        } else {
            (motions.leaving.changes, motions.arriving.changes) = (presented, presenting)
        }
        motions.arrivingOnTop = isPresenting
        motions.dimming = presentation.dimming
        let dimming = presentation.dimming.map { ", dimming \($0.color.hexString) at \($0.opacity)" } ?? ""
        motions.name = "presentation \(presentation.style.rawValue)\(dimming)"
        return motions
    }
}

extension Scene {
    /// A page sheet's top inset when its presented root gives no frame (ours: 7.5% of the canvas's height,
    /// 63 pt on an 844-pt screen, leaving a strip of the screen behind in view as a page sheet does; UIKit
    /// publishes no number).
    static let sheetTopInset = 0.075

    /// The scene as the engine plays it: a sheet's presented root without a frame gets the sheet's (every
    /// other root fills the canvas, as before). The presented root is `to`, or `from` when dismissing.
    var withPresentedFrames: Scene {
        guard transition.presentation?.style == .sheet else { return self }
        var scene = self
        let top = (canvas.height * Self.sheetTopInset).rounded()
        let sheet = Rect(x: 0, y: top, width: canvas.width, height: canvas.height - top)
        if transition.direction == .dismiss {
            if scene.from.frame == nil { scene.from.frame = sheet }
        } else if scene.to.frame == nil {
            scene.to.frame = sheet
        }
        return scene
    }
}
