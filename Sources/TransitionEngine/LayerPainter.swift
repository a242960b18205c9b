import FramePlan
import Primitives
import SceneModel

/// Draws one view's own layer parts in Core Animation's order: shadow below
/// everything, then background and gradient, contents and sublayers (drawn by
/// the caller), and the border above them all. Shared by static snapshots and live transient
/// views, so both look the same. Opacity and outer clips are applied to the
/// whole view afterwards (`GroupOpacity`).
struct LayerPainter {
    let transform: AffineTransform2D
    let bounds: Rect
    let cornerRadius: Double
    let label: String

    var shape: RoundedRect { RoundedRect(rect: bounds, cornerRadius: cornerRadius) }

    /// A drop shadow following the rounded bounds. `masksToBounds` clips a
    /// layer's own shadow away in Core Animation, so there is none then.
    /// Core Animation's shadowRadius reads as a Gaussian's standard deviation
    /// (CSS blur = 2 x shadowRadius, and CSS blur = 2 sigma).
    func paintShadow(
        color: RGBAColor, opacity shadowOpacity: Double, radius: Double, offset: Size,
        masksToBounds: Bool, into items: inout [DrawItem]
    ) {
        guard !masksToBounds, shadowOpacity > 0, color.alpha > 0 else { return }
        var shadowColor = color
        shadowColor.alpha *= min(max(shadowOpacity, 0), 1)
        let rect = Rect(
            x: bounds.minX + offset.width, y: bounds.minY + offset.height,
            width: bounds.width, height: bounds.height)
        items.append(
            DrawItem(
                transform: transform, shape: RoundedRect(rect: rect, cornerRadius: cornerRadius),
                paint: .shadow(color: shadowColor, sigma: max(radius, 0)),
                label: label + " (shadow)"))
    }

    func paintBackground(_ color: RGBAColor, into items: inout [DrawItem]) {
        guard color.alpha > 0 else { return }
        items.append(DrawItem(transform: transform, shape: shape, paint: .solid(color), label: label))
    }

    /// CAGradientLayer as the view's background: over `backgroundColor`, laid
    /// into the current bounds and rounded with them.
    func paintGradient(_ gradient: GradientSpec?, into items: inout [DrawItem]) {
        guard let gradient, gradient.colors.contains(where: { $0.alpha > 0 }) else { return }
        items.append(
            DrawItem(transform: transform, shape: shape, paint: .gradient(gradient.paint(in: bounds)), label: label + " (gradient)"))
    }

    /// The clips for contents and sublayers: the rounded bounds, with `masksToBounds`.
    func contentClips(masksToBounds: Bool) -> [Clip] {
        masksToBounds ? [Clip(transform: transform, shape: shape)] : []
    }

    func paintBorder(width: Double, color: RGBAColor, into items: inout [DrawItem]) {
        guard width > 0, color.alpha > 0 else { return }
        items.append(
            DrawItem(
                transform: transform, shape: shape, paint: .border(width: width, color: color),
                label: label + " (border)"))
    }
}

/// Core Animation draws siblings by zPosition, keeping their order among equals.
enum ZOrder {
    static func sorted(_ indices: [Int], by z: (Int) -> Double) -> [Int] {
        indices.enumerated()
            .sorted { (z($0.element), $0.offset) < (z($1.element), $1.offset) }
            .map(\.element)
    }
}
