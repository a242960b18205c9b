import ShiftRender
import Testing

/// A matched view's content cross-fades as Shift draws it on a device: each
/// content is a snapshot holding the view's own background, the arriving one
/// drawn over the leaving one, both over the view's animated background. At
/// fade progress q (the curve's value), with opaque contents I (leaving) and
/// F (arriving) over the view's background B(q) = I_bg + q (F_bg - I_bg):
///
///     pixel = q F + (1 - q) [(1 - q) I + q B(q)]
///
/// so the leaving content weighs (1 - q)^2, not 1 - q. Expected values below
/// are worked by hand from that line; the still is found at the clip fraction
/// whose curve value is q (the matched view does not move, so its duration is
/// the transition's).
@Suite struct ContentCrossFadeTests {
    static let red = RGBAColor(rgb: 0xFF0000)
    static let blue = RGBAColor(rgb: 0x0000FF)

    /// One 40x40 matched view at the same place on both screens, over a white canvas.
    func scene(from: View, to: View) -> Scene {
        Scene(
            canvas: CanvasSpec(width: 40, height: 40, background: .white),
            transition: TransitionSpec(defaultAnimation: DefaultAnimation.none),
            from: View { from.frame(Rect(x: 0, y: 0, width: 40, height: 40)).shift(id: "card") },
            to: View { to.frame(Rect(x: 0, y: 0, width: 40, height: 40)).shift(id: "card", contentAnimation: .fade) })
    }

    /// The clip fraction at which Shift's curve reaches `q` (the curve rises monotonically).
    func fraction(reaching q: Double) -> Double {
        var low = 0.0
        var high = 1.0
        for _ in 0 ..< 60 {
            let mid = (low + high) / 2
            if TimingCurve.shift.value(at: mid) < q { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    func centre(_ scene: Scene, at q: Double) throws -> (r: Double, g: Double, b: Double) {
        let still = try Renderer(scene: scene).still(.progress(fraction(reaching: q)))
        let p = still.pixel(x: 20, y: 20)
        #expect(p.a == 255)
        return (Double(p.r), Double(p.g), Double(p.b))
    }

    /// Backgrounds only: red leaves, blue arrives. Red = 255 (1-q)^2 + 255 q (1-q)^2 = 255 (1-q)^2 (1+q);
    /// blue = 255 q + 255 q^2 (1-q) = 255 q (1 + q (1-q)).
    @Test(arguments: [(0.25, 179.30, 75.70), (0.5, 95.63, 159.38), (0.75, 27.89, 227.11)])
    func backgroundsCrossFadeAsOnADevice(q: Double, red: Double, blue: Double) throws {
        let pixel = try centre(scene(from: View().backgroundColor(Self.red), to: View().backgroundColor(Self.blue)), at: q)
        #expect(abs(pixel.r - red) <= 1.5, "red at q = \(q): \(pixel.r), want \(red); 1 - q would give \(255 * (1 - q))")
        #expect(abs(pixel.b - blue) <= 1.5, "blue at q = \(q): \(pixel.b), want \(blue)")
        #expect(pixel.g <= 1)
    }

    /// Clear backgrounds, contents that are subviews: the white canvas shows
    /// through what neither content covers, weight 1 - q - (1-q)^2 = q (1-q).
    /// Red = 255 (1-q)^2 + 255 q (1-q); green = 255 q (1-q); blue = 255 q + 255 q (1-q).
    @Test(arguments: [(0.25, 191.25, 47.81, 111.56), (0.5, 127.5, 63.75, 191.25), (0.75, 63.75, 47.81, 239.06)])
    func theLeavingContentWeighsOneMinusQSquared(q: Double, red: Double, green: Double, blue: Double) throws {
        let fill = Rect(x: 0, y: 0, width: 40, height: 40)
        let leaving = View { View(frame: fill).backgroundColor(Self.red) }
        let arriving = View { View(frame: fill).backgroundColor(Self.blue) }
        let pixel = try centre(scene(from: leaving, to: arriving), at: q)
        #expect(abs(pixel.r - red) <= 1.5, "red at q = \(q): \(pixel.r), want \(red); 1 - q would give \(255 * (1 - q))")
        #expect(abs(pixel.g - green) <= 1.5, "green at q = \(q): \(pixel.g), want \(green)")
        #expect(abs(pixel.b - blue) <= 1.5, "blue at q = \(q): \(pixel.b), want \(blue)")
    }

    /// `contentAnimation: final` shows the arriving content, background included, from the first moment of
    /// motion (progress 1e-9: at exactly 0 the clip shows the screen at rest).
    @Test func finalContentShowsItsBackgroundThroughout() throws {
        var scene = scene(from: View().backgroundColor(Self.red), to: View().backgroundColor(Self.blue))
        scene.to.subviews[0].shift.contentAnimation = .final
        let first = try Renderer(scene: scene).still(.progress(1e-9)).pixel(x: 20, y: 20)
        #expect(first.r == 0 && first.b == 255)
    }

    /// `alpha` and `opacity` are one property: the later animation in the list wins.
    @Test(arguments: [
        ([AdditionalAnimation.alpha(0.5), .opacity(0.25)], 0.25),
        ([AdditionalAnimation.opacity(0.25), .alpha(0.5)], 0.5),
    ])
    func alphaAndOpacityAreOneProperty(animations: [AdditionalAnimation], alpha: Double) throws {
        let scene = Scene(
            canvas: CanvasSpec(width: 40, height: 40, background: .white),
            transition: TransitionSpec(defaultAnimation: DefaultAnimation.none),
            from: View(),
            to: View {
                View(frame: Rect(x: 0, y: 0, width: 40, height: 40)).backgroundColor(.black).shift(animations: animations)
            })
        // As the motion starts the arriving view is at its modified alpha over white: 255 (1 - alpha).
        let pixel = try Renderer(scene: scene).still(.progress(1e-9)).pixel(x: 20, y: 20)
        #expect(abs(Double(pixel.r) - 255 * (1 - alpha)) <= 1, "got \(pixel.r); a product would give \(255 * (1 - 0.125))")
    }
}
