import Primitives
import SceneModel

/// The tint each `BlurStyle` lays over its blurred backdrop (ours: Apple
/// publishes no numbers; docs/blur.md has the table and why). We render the
/// light appearance, so the unqualified `system...Material` styles are their
/// `...Light` variants. Not modelled: the saturation boost and vibrancy of
/// UIKit's materials.
enum BlurTint {
    static func color(of style: BlurStyle) -> RGBAColor {
        func white(_ alpha: Double) -> RGBAColor { RGBAColor(red: 1, green: 1, blue: 1, alpha: alpha) }
        func gray(_ level: Double, _ alpha: Double) -> RGBAColor { RGBAColor(red: level, green: level, blue: level, alpha: alpha) }
        let dark = 0x1C / 255.0  // #1C1C1C, the dark blur's grey
        switch style {
        case .extraLight: return gray(0.97, 0.8)
        case .light: return white(0.3)
        case .dark: return gray(dark, 0.7)
        case .regular: return white(0.5)
        case .prominent: return white(0.7)
        case .systemUltraThinMaterial, .systemUltraThinMaterialLight: return white(0.25)
        case .systemThinMaterial, .systemThinMaterialLight: return white(0.45)
        case .systemMaterial, .systemMaterialLight: return white(0.6)
        case .systemThickMaterial, .systemThickMaterialLight: return white(0.75)
        case .systemChromeMaterial, .systemChromeMaterialLight: return gray(0.97, 0.75)
        case .systemUltraThinMaterialDark: return gray(dark, 0.3)
        case .systemThinMaterialDark: return gray(dark, 0.5)
        case .systemMaterialDark: return gray(dark, 0.65)
        case .systemThickMaterialDark: return gray(dark, 0.8)
        case .systemChromeMaterialDark: return gray(dark, 0.75)
        }
    }
}

extension RGBAColor {
    /// The same colour at another alpha.
    func with(alpha: Double) -> RGBAColor { RGBAColor(red: red, green: green, blue: blue, alpha: alpha) }
}
