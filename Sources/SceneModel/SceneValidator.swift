import Primitives

/// Every rule a scene's values must keep, checked on the model so that a scene
/// read from a file and one built in Swift are held to the same rules, each
/// written once: numbers finite and in their documented ranges, limits on
/// sizes and counts, ids unique per screen. Checking goes on after a problem,
/// so one run reports all of them, in scene order.
///
/// What only a file can get wrong (syntax, unknown keys, wrong types) is the
/// file reader's to report; what needs the disk (images) the renderer's.
public enum SceneValidator {
    /// The scene's problems, errors and warnings, in the order of the places they name.
    /// Warnings (`ShiftFidelityWarnings`) follow the errors: what Shift ignores
    /// or draws otherwise when the scene plays as written, or `reversed`
    /// (`Scene.reversed()`), still at the places of the scene as written.
    public static func problems(in scene: Scene, reversed: Bool = false) -> [SceneProblem] {
        var checker = Checker()
        checker.check(scene)
        return checker.problems + ShiftFidelityWarnings.warnings(in: scene, reversed: reversed) + NavigationWarnings.warnings(in: scene)
            + InteractionWarnings.warnings(in: scene)
    }
}

struct Checker {
    var problems: [SceneProblem] = []
    private var viewCount = 0
    let coordinate = -SceneLimits.maximumCoordinate ... SceneLimits.maximumCoordinate
    let length = 0 ... SceneLimits.maximumCoordinate
    let unit = 0.0 ... 1.0
    let seconds = 0 ... SceneLimits.maximumSeconds

    mutating func report(_ place: ScenePlace, _ message: String) {
        problems.append(SceneProblem(at: place, message))
    }

    // MARK: Values

    /// A number the way messages print it: whole numbers without a fraction.
    static func format(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }

    mutating func number(_ value: Double, _ place: ScenePlace, in range: ClosedRange<Double>, exclusiveLower: Bool = false) {
        guard value.isFinite else {
            report(place, value.isNaN ? "not a number (NaN)" : "\(value) is not a finite number")
            return
        }
        if !range.contains(value) || (exclusiveLower && value == range.lowerBound) {
            let f = Self.format
            let lower = exclusiveLower ? "greater than \(f(range.lowerBound))" : "at least \(f(range.lowerBound))"
            report(place, "\(f(value)) is out of range: must be \(lower) and at most \(f(range.upperBound))")
        }
    }

    /// Components of a vector, each reported at its index as a file lists them.
    mutating func components(_ values: [Double], _ place: ScenePlace, in range: ClosedRange<Double>) {
        for (i, value) in values.enumerated() { component(value, place.index(i), in: range) }
    }

    /// One component of a vector (or a number in a list), reported with its range.
    mutating func component(_ value: Double, _ place: ScenePlace, in range: ClosedRange<Double>) {
        guard finite(value, place) else { return }
        if !range.contains(value) {
            let f = Self.format
            report(place, "\(f(value)) is out of range \(f(range.lowerBound))...\(f(range.upperBound))")
        }
    }

    /// Whether `value` is finite; reported when not.
    @discardableResult
    mutating func finite(_ value: Double, _ place: ScenePlace) -> Bool {
        guard value.isFinite else {
            report(place, value.isNaN ? "not a number (NaN)" : "\(value) is not a finite number")
            return false
        }
        return true
    }

    mutating func point(_ p: Point, _ place: ScenePlace, in range: ClosedRange<Double>) {
        components([p.x, p.y], place, in: range)
    }

    mutating func size(_ s: Size, _ place: ScenePlace, in range: ClosedRange<Double>) {
        components([s.width, s.height], place, in: range)
    }

    mutating func rect(_ r: Rect, _ place: ScenePlace) {
        let before = problems.count
        components([r.minX, r.minY, r.width, r.height], place, in: coordinate)
        if problems.count == before, r.width < 0 || r.height < 0 {
            let f = Self.format
            report(place, "width and height must not be negative (got \(f(r.width)) x \(f(r.height)))")
        }
    }

    mutating func color(_ c: RGBAColor, _ place: ScenePlace) {
        components([c.red, c.green, c.blue, c.alpha], place, in: unit)
    }

    // MARK: Scene

    mutating func check(_ scene: Scene) {
        if scene.version < 1 {
            report(.key("version"), "expected a whole number >= 1, got \(scene.version)")
        } else if scene.version > SceneFormatVersion.current {
            report(
                .key("version"),
                "format version \(scene.version) is newer than this shiftrender reads "
                    + "(\(SceneFormatVersion.current)); update shiftrender")
        }
        check(scene.canvas)
        number(scene.fps, .key("fps"), in: SceneLimits.minimumFPS ... SceneLimits.maximumFPS)
        check(scene.transition)
        check(scene.from, ViewAddress(screen: .from))
        checkUniqueIDs(scene, .from)
        check(scene.to, ViewAddress(screen: .to))
        checkUniqueIDs(scene, .to)
    }

    mutating func check(_ canvas: CanvasSpec) {
        let place = ScenePlace.key("canvas")
        let limit = Double(SceneLimits.maximumCanvasPixels)
        let before = problems.count
        number(canvas.width, place.key("width"), in: 0 ... limit, exclusiveLower: true)
        number(canvas.height, place.key("height"), in: 0 ... limit, exclusiveLower: true)
        number(canvas.scale, place.key("scale"), in: 0 ... SceneLimits.maximumScale, exclusiveLower: true)
        color(canvas.background, place.key("background"))
        guard problems.count == before else { return }
        let f = Self.format
        for (side, points) in [("width", canvas.width), ("height", canvas.height)] {
            let pixels = (points * canvas.scale).rounded()
            if pixels > limit {
                report(
                    place.key(side),
                    "\(f(points)) pt at scale \(f(canvas.scale)) is \(f(pixels)) px; "
                        + "the limit is \(SceneLimits.maximumCanvasPixels) px a side")
            } else if pixels < 1 {
                report(place.key(side), "\(f(points)) pt at scale \(f(canvas.scale)) is less than one pixel")
            }
        }
    }

    mutating func check(_ transition: TransitionSpec) {
        let place = ScenePlace.key("transition")
        number(transition.baselineDuration, place.key("baselineDuration"), in: seconds)
        number(transition.roundtripPause, place.key("roundtripPause"), in: seconds)
        number(transition.holdBefore, place.key("hold").key("before"), in: seconds)
        number(transition.holdAfter, place.key("hold").key("after"), in: seconds)
        if case .scale(let k) = transition.defaultAnimation {
            number(k, place.key("defaultAnimation").key("scale"), in: 0 ... 100, exclusiveLower: true)
        }
        check(transition.timing, place)
        check(navigation: transition.navigation, presentation: transition.presentation, place)
        if let interaction = transition.interaction { check(interaction, place.key("interaction")) }
    }

    // MARK: Views

    mutating func check(_ view: View, _ address: ViewAddress) {
        let place = address.place
        viewCount += 1
        if viewCount == SceneLimits.maximumViews + 1 {
            report(place, "more than \(SceneLimits.maximumViews) views in the scene")
        }
        if let frame = view.frame {
            rect(frame, place.key("frame"))
        } else if !address.isRoot {
            report(place.key("frame"), "missing: every view but a root needs [x, y, width, height]")
        }
        if let background = view.backgroundColor { color(background, place.key("backgroundColor")) }
        number(view.alpha, place.key("alpha"), in: unit)
        number(view.cornerRadius, place.key("cornerRadius"), in: length)
        number(view.borderWidth, place.key("borderWidth"), in: length)
        color(view.borderColor, place.key("borderColor"))
        if let shadow = view.shadow { check(shadow, place.key("shadow")) }
        if let gradient = view.gradient { check(gradient, place.key("gradient")) }
        if let blur = view.blur { check(blur, place.key("blur")) }
        check(view.transform, place.key("transform"))
        point(view.anchorPoint, place.key("anchorPoint"), in: -SceneLimits.maximumAnchor ... SceneLimits.maximumAnchor)
        number(view.zPosition, place.key("zPosition"), in: coordinate)
        if let image = view.image { check(image, place.key("image")) }
        if let text = view.text { check(text, place.key("text")) }
        check(view.shift, place.key("shift"))
        guard !view.subviews.isEmpty else { return }
        if address.indices.count + 1 > SceneLimits.maximumViewDepth {
            report(place.key("subviews"), "views nest deeper than \(SceneLimits.maximumViewDepth) levels")
            return
        }
        for (i, subview) in view.subviews.enumerated() { check(subview, address.child(i)) }
    }

    mutating func check(_ shadow: ShadowSpec, _ place: ScenePlace) {
        color(shadow.color, place.key("color"))
        number(shadow.opacity, place.key("opacity"), in: unit)
        number(shadow.radius, place.key("radius"), in: 0 ... SceneLimits.maximumShadowRadius)
        size(shadow.offset, place.key("offset"), in: coordinate)
    }

    /// CAGradientLayer draws nothing without colours, so a gradient needs at
    /// least one (one colour fills the bounds). Apple documents locations as
    /// "monotonically increasing"; equal neighbours (a hard stop) are allowed,
    /// a decrease is refused, as is a count other than the colours'.
    mutating func check(_ gradient: GradientSpec, _ place: ScenePlace) {
        let limit = SceneLimits.maximumGradientColors
        if gradient.colors.isEmpty {
            report(place.key("colors"), "a gradient needs at least one colour")
        } else if gradient.colors.count > limit {
            report(place.key("colors"), "\(gradient.colors.count) colours; the limit is \(limit)")
        }
        for (i, c) in gradient.colors.prefix(limit).enumerated() { color(c, place.key("colors").index(i)) }
        if let locations = gradient.locations {
            let locationsPlace = place.key("locations")
            if locations.count != gradient.colors.count {
                report(
                    locationsPlace,
                    "\(locations.count) location\(locations.count == 1 ? "" : "s") for \(gradient.colors.count) "
                        + "colour\(gradient.colors.count == 1 ? "" : "s"); give one location per colour, or none to spread them evenly")
            }
            let before = problems.count
            components(Array(locations.prefix(limit)), locationsPlace, in: unit)
            if problems.count == before, let i = locations.indices.dropFirst().first(where: { locations[$0] < locations[$0 - 1] }) {
                let f = Self.format
                report(
                    locationsPlace.index(i),
                    "\(f(locations[i])) is less than the location before it (\(f(locations[i - 1]))); locations must not decrease")
            }
        }
        let anchor = -SceneLimits.maximumAnchor ... SceneLimits.maximumAnchor
        point(gradient.startPoint, place.key("startPoint"), in: anchor)
        point(gradient.endPoint, place.key("endPoint"), in: anchor)
    }

    mutating func check(_ transform: TransformSpec, _ place: ScenePlace) {
        point(transform.translate, place.key("translate"), in: coordinate)
        let factor = SceneLimits.maximumScaleFactor
        size(transform.scale, place.key("scale"), in: -factor ... factor)
        let turns = SceneLimits.maximumRotation
        number(transform.rotate, place.key("rotate"), in: -turns ... turns)
        checkDepth(transform, place)
    }

    mutating func check(_ image: ImageSource, _ place: ScenePlace) {
        switch image {
        case .file(let path):
            if path.isEmpty { report(place, "empty image path") }
            // The C library would read it only up to the NUL: another file than the one written.
            if path.utf8.contains(0) { report(place, "the image path contains a NUL character (\\u0000), which no file name can hold") }
        case .encoded(let bytes):
            if bytes.isEmpty { report(place, "empty image data") }
        case .bitmap(let bitmap):
            let limit = SceneLimits.maximumImagePixels
            if bitmap.pixels.count != bitmap.width * bitmap.height * 4 {
                report(
                    place,
                    "the bitmap holds \(bitmap.pixels.count) bytes; \(bitmap.width) x \(bitmap.height) px needs "
                        + "\(bitmap.width * bitmap.height * 4)")
            } else if bitmap.width == 0 || bitmap.height == 0 {
                report(place, "the bitmap is empty (\(bitmap.width) x \(bitmap.height) px)")
            } else if bitmap.width > limit || bitmap.height > limit {
                report(place, "the bitmap is \(bitmap.width) x \(bitmap.height) px; the limit is \(limit) px a side")
            }
        }
    }

    mutating func check(_ text: TextSpec, _ place: ScenePlace) {
        let bytes = text.string.utf8.count
        if bytes > SceneLimits.maximumTextBytes {
            report(place.key("string"), "\(bytes) bytes of text; the limit is \(SceneLimits.maximumTextBytes) (UTF-8)")
        }
        let font = place.key("font")
        switch text.font.face {
        case .family(let name): if name.isEmpty { report(font.key("family"), "empty family name") }
        case .file(let path):
            if path.isEmpty { report(font.key("file"), "empty font file path") }
            if path.utf8.contains(0) {
                report(font.key("file"), "the font file path contains a NUL character (\\u0000), which no file name can hold")
            }
        }
        number(text.font.size, font.key("size"), in: 0 ... SceneLimits.maximumFontSize, exclusiveLower: true)
        color(text.color, place.key("color"))
        if text.numberOfLines < 0 { report(place.key("numberOfLines"), "\(text.numberOfLines) is negative; 0 means as many as fit") }
        number(text.lineHeightMultiple, place.key("lineHeightMultiple"), in: 0 ... SceneLimits.maximumLineHeightMultiple)
        let spacing = SceneLimits.maximumLetterSpacing
        number(text.letterSpacing, place.key("letterSpacing"), in: -spacing ... spacing)
    }

    mutating func check(_ shift: ShiftOptions, _ place: ScenePlace) {
        if shift.id == "" { report(place.key("id"), "empty id") }
        for (i, animation) in shift.animations.enumerated() {
            let change = animation.change
            check(change, place.key("animations").index(i).key(change.name))
        }
        check(shift.timing, place)
    }

    mutating func check(_ change: PropertyChange, _ place: ScenePlace) {
        let factor = SceneLimits.maximumScaleFactor
        switch change {
        case .fade, .masksToBounds: break
        case .scale(let k): number(k, place, in: -factor ... factor)
        case .move(let dx, let dy):
            // A file spells a move by direction (`up`, `right`...), not as a pair: report the move as a whole.
            if !(coordinate.contains(dx) && coordinate.contains(dy)) {
                let f = Self.format
                report(
                    place,
                    "a move of (\(f(dx)), \(f(dy))) is out of range: each must be at least "
                        + "\(f(coordinate.lowerBound)) and at most \(f(coordinate.upperBound))")
            }
        case .bounds(let r): rect(r, place)
        case .alpha(let v), .opacity(let v), .shadowOpacity(let v): number(v, place, in: unit)
        case .cornerRadius(let v), .borderWidth(let v): number(v, place, in: length)
        case .anchorPoint(let p): point(p, place, in: -SceneLimits.maximumAnchor ... SceneLimits.maximumAnchor)
        case .zPosition(let z): number(z, place, in: coordinate)
        case .borderColor(let c), .shadowColor(let c), .backgroundColor(let c): color(c, place)
        case .shadowOffset(let o): size(o, place, in: coordinate)
        case .shadowRadius(let r): number(r, place, in: 0 ... SceneLimits.maximumShadowRadius)
        case .transform(let t): check(t, place)
        case .rotate(let degrees):
            number(degrees, place, in: -SceneLimits.maximumRotation ... SceneLimits.maximumRotation)
        }
    }

    /// Matching is by `shift.id`, so an id may stand only once on each screen.
    mutating func checkUniqueIDs(_ scene: Scene, _ screen: Screen) {
        var firstPlace: [String: ViewAddress] = [:]
        var duplicates: [(ViewAddress, String, ViewAddress)] = []
        func visit(_ view: View, _ address: ViewAddress) {
            if let id = view.shift.id, !id.isEmpty {
                if let first = firstPlace[id] { duplicates.append((address, id, first)) } else { firstPlace[id] = address }
            }
            for (i, subview) in view.subviews.enumerated() { visit(subview, address.child(i)) }
        }
        visit(scene.root(screen), ViewAddress(screen: screen))
        for (address, id, first) in duplicates {
            report(
                address.place.key("shift").key("id"),
                "duplicate id \"\(id)\" (first used at \(scene.namedPlace(of: first))); ids must be unique within a screen")
        }
    }
}

/// The scene format versions this build understands.
public enum SceneFormatVersion {
    /// The newest format version this build reads.
    public static let current = 1
}
