/// Primitives: the vocabulary every stage shares and nothing else.
///
/// Geometry in points or pixels (`Point`, `Size`, `Rect`, `AffineTransform2D`),
/// colours as straight-alpha sRGB (`RGBAColor`) and images as premultiplied
/// RGBA8 (`Bitmap`). Invariants: values here are plain, `Sendable` and free of
/// policy; a `Bitmap` always holds exactly `width * height * 4` bytes.
/// This module imports nothing but the standard library (and the C library for
/// `ProcessorCount`), so that every stage
/// can depend on it without pulling in another stage.
public enum Primitives {}
