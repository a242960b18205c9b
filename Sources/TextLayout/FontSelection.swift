/// Which face draws each character: the primary face when it has every
/// character of the grapheme cluster that needs a glyph, else the first face
/// in fontconfig's fallback order that has the cluster's first missing
/// character; a character no face has is reported and left to the primary
/// face, which draws its .notdef.
struct FaceAssignment {
    /// One face per scalar of the text.
    var faces: [FontFace]
    var missing: [Unicode.Scalar]

    init(_ string: String, primary: FontFace, fallback: (UInt32) -> FontFace?) {
        var faces: [FontFace] = []
        var missing: [Unicode.Scalar] = []
        var reported = Set<UInt32>()
        for character in string {
            let needed = character.unicodeScalars.filter(needsGlyph).map(\.value)
            var face = primary
            if let absent = needed.first(where: { primary.glyphIndex($0) == 0 }) {
                face = fallback(absent) ?? primary
                for scalar in needed where face.glyphIndex(scalar) == 0 && fallback(scalar) == nil && reported.insert(scalar).inserted {
                    if let value = Unicode.Scalar(scalar) { missing.append(value) }
                }
            }
            faces.append(contentsOf: repeatElement(face, count: character.unicodeScalars.count))
        }
        self.faces = faces
        self.missing = missing
    }
}

/// Whether a character is drawn with a glyph of its own: controls, format
/// characters (joiners, bidi marks), separators and other default-ignorable
/// characters are not, so a face lacking them is no reason to fall back.
func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isDefaultIgnorableCodePoint { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return false
    default: return true
    }
}
