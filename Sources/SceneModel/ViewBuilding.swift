// Writing view trees in Swift the way UIKit code reads, without giving up
// value semantics.
//
// Design: a view is still the plain `View` struct; this file adds only a way
// to write its subviews as a block (`SubviewsBuilder`), so a tree reads top
// to bottom like the screen it describes:
//
//     View(name: "card", frame: Rect(x: 20, y: 140, width: 350, height: 130)) {
//         View(name: "thumbnail", frame: Rect(x: 12, y: 12, width: 72, height: 106))
//         if showsSubtitle { View(name: "subtitle", frame: ...) }
//         for row in rows { View(name: row, frame: ...) }
//     }
//     .backgroundColor(.white).cornerRadius(16).shift(id: "card")
//
// Why a result builder and not nested `subviews: [...]` arrays: the builder
// takes `if`, `for` and `switch`, which a literal cannot, and needs no commas
// between views. Why nothing more (no `@State`, no environment): a scene is
// data for one render, so everything a view says is in its own properties,
// and `var v = View(...); v.shift.id = "card"` keeps working unchanged.
// The modifiers that follow the block are in ViewModifiers.swift.

public import Primitives

/// Collects the views written in a block, in order (back to front). Takes
/// single views, arrays of views, `if`/`else`, `switch` and `for` loops.
@resultBuilder
public enum SubviewsBuilder {
    public static func buildExpression(_ view: View) -> [View] { [view] }
    public static func buildExpression(_ views: [View]) -> [View] { views }
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    public static func buildEither(first part: [View]) -> [View] { part }
    public static func buildEither(second part: [View]) -> [View] { part }
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

extension View {
    /// A view with the subviews written in the block, back to front, as
    /// UIKit's `addSubview` calls in order would stack them.
    ///
    /// `frame` is in the superview's points, as UIKit's; nil on a root fills
    /// the canvas. Every other property starts at its UIKit default; set it
    /// with a modifier (`.backgroundColor(.white)`) or on a `var`.
    public init(name: String? = nil, frame: Rect? = nil, @SubviewsBuilder subviews: () -> [View]) {
        self.init(name: name, frame: frame, subviews: subviews())
    }
}
