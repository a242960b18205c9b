// Chained modifiers on `View`: each returns a copy with one property
// changed, named exactly as the UIKit property it sets (`cornerRadius`,
// `masksToBounds`, `borderColor`, `zPosition`, ...) and as the scene format's
// key, so `.cornerRadius(16)` in Swift, `view.cornerRadius = 16` on a `var`,
// `"cornerRadius": 16` in a file and the place `to.subviews[1].cornerRadius`
// in a message all say the same word.
//
// Why modifiers on a value rather than setters on a reference: a scene is
// plain data that is compared (`==`), hashed, written as JSON and handed to
// other threads; a struct gives all of that for free and a modifier chain
// still reads like UIKit set-up code. Each modifier is a plain method with
// one job and few overloads, so long chains inside builders stay quick to
// type-check. Values are taken as given: nothing here clamps or traps, and
// `SceneValidator` reports a bad value with its place.

public import Primitives

extension View {
    /// A copy with `name` (for messages and `info`).
    public func name(_ name: String?) -> View { with { $0.name = name } }

    /// A copy with `frame`, in the superview's points (nil on a root: the whole canvas).
    public func frame(_ frame: Rect?) -> View { with { $0.frame = frame } }

    /// A copy with the frame at `x`, `y` with size `width` x `height`.
    public func frame(x: Double, y: Double, width: Double, height: Double) -> View {
        frame(Rect(x: x, y: y, width: width, height: height))
    }

    /// A copy with `backgroundColor` (nil: none).
    public func backgroundColor(_ color: RGBAColor?) -> View { with { $0.backgroundColor = color } }

    public func alpha(_ alpha: Double) -> View { with { $0.alpha = alpha } }

    /// Rounds the background and border; clips content only with `masksToBounds`, as in UIKit.
    public func cornerRadius(_ radius: Double) -> View { with { $0.cornerRadius = radius } }

    /// Clips image and subviews to the rounded bounds.
    public func masksToBounds(_ masks: Bool = true) -> View { with { $0.masksToBounds = masks } }

    public func borderWidth(_ width: Double) -> View { with { $0.borderWidth = width } }

    public func borderColor(_ color: RGBAColor) -> View { with { $0.borderColor = color } }

    /// A copy with `layer.borderWidth` and `layer.borderColor` set together.
    public func border(width: Double, color: RGBAColor) -> View { borderWidth(width).borderColor(color) }

    /// A copy with `shadow` (nil: none).
    public func shadow(_ shadow: ShadowSpec?) -> View { with { $0.shadow = shadow } }

    /// A copy with a shadow; Core Animation's defaults for what is not given.
    public func shadow(
        color: RGBAColor = .black, opacity: Double, radius: Double = 3,
        offset: Size = Size(width: 0, height: -3)
    ) -> View {
        shadow(ShadowSpec(color: color, opacity: opacity, radius: radius, offset: offset))
    }

    public func transform(_ transform: TransformSpec) -> View { with { $0.transform = transform } }

    /// Unit coordinates of the bounds; (0.5, 0.5) is the centre.
    public func anchorPoint(_ point: Point) -> View { with { $0.anchorPoint = point } }

    public func zPosition(_ z: Double) -> View { with { $0.zPosition = z } }

    /// The view and its subviews take no part (UIKit's `isHidden`, not Shift's `shift.isHidden`).
    public func isHidden(_ hidden: Bool = true) -> View { with { $0.isHidden = hidden } }

    /// A copy showing `image`: a PNG or JPEG file or bytes, or a bitmap (`ImageSource`).
    public func image(_ image: ImageSource?) -> View { with { $0.image = image } }

    public func contentMode(_ mode: ContentMode) -> View { with { $0.contentMode = mode } }

    /// A copy drawing `text` as a UILabel would (nil: none).
    public func text(_ text: TextSpec?) -> View { with { $0.text = text } }

    /// A copy drawing `string` as a UILabel would, with the options given and UILabel's defaults for the rest.
    public func text(
        _ string: String, font: FontSpec = FontSpec(), color: RGBAColor = .black, alignment: TextAlignment = .natural,
        numberOfLines: Int = 1, lineBreakMode: LineBreakMode = .byTruncatingTail
    ) -> View {
        text(TextSpec(string, font: font, color: color, alignment: alignment, numberOfLines: numberOfLines, lineBreakMode: lineBreakMode))
    }

    /// A copy with a CAGradientLayer as its background (nil: none).
    public func gradient(_ gradient: GradientSpec?) -> View { with { $0.gradient = gradient } }

    /// A copy with Shift's options changed: only the ones given, so that
    /// `.shift(id: "card").shift(superview: .container)` keeps the id.
    /// `animations` replaces the list (Shift's `view.shift.animations`).
    public func shift(
        id: String? = nil, contentAnimation: ShiftOptions.ContentAnimation? = nil,
        contentSizing: ShiftOptions.ContentSizing? = nil, superview: ShiftOptions.SuperviewChoice? = nil,
        position: ShiftOptions.Position? = nil, isHidden: Bool? = nil,
        animations: [AdditionalAnimation]? = nil
    ) -> View {
        with { view in
            if let id { view.shift.id = id }
            if let contentAnimation { view.shift.contentAnimation = contentAnimation }
            if let contentSizing { view.shift.contentSizing = contentSizing }
            if let superview { view.shift.superview = superview }
            if let position { view.shift.position = position }
            if let isHidden { view.shift.isHidden = isHidden }
            if let animations { view.shift.animations = animations }
        }
    }

    /// A copy with all of Shift's options replaced by `options`.
    public func shift(_ options: ShiftOptions) -> View { with { $0.shift = options } }

    /// A copy with the subviews written in the block added on top of the ones it has.
    public func addingSubviews(@SubviewsBuilder _ subviews: () -> [View]) -> View {
        with { $0.subviews += subviews() }
    }

    /// A copy changed by `change`: the escape hatch for anything set
    /// imperatively (`.with { $0.shift.animations = .init().fade() }`).
    public func with(_ change: (inout View) -> Void) -> View {
        var copy = self
        change(&copy)
        return copy
    }
}

// Issue 17: the layer's sidedness and a backdrop blur, named as Core Animation and UIKit name them.
extension View {
    /// Core Animation's `isDoubleSided`: false hides the view while its back faces the viewer.
    public func doubleSided(_ doubleSided: Bool) -> View { with { $0.doubleSided = doubleSided } }

    /// A backdrop blur (nil: none).
    public func blur(_ blur: BlurSpec?) -> View { with { $0.blur = blur } }

    /// UIVisualEffectView with `UIBlurEffect(style:)`: what is behind the view shows blurred
    /// inside its rounded bounds, then the style's tint; `radius` in points, 0...100 (docs/blur.md).
    public func blur(_ style: BlurStyle = .regular, radius: Double = 20) -> View { blur(BlurSpec(style: style, radius: radius)) }
}
