#if canImport(Glibc)
import Glibc
#endif
internal import Basics
internal import CCairo
internal import CPangoCairo

/// Labels: measured, fitted to their keys and drawn with Pango; what reaches Pango's fonts runs under the
/// process's fonts lock (`fonts`).
extension KeyboardRenderer {
    /// Cairo keeps one cache of scaled fonts for the whole process, and cairo 1.16 breaks it when one
    /// thread lets a font go while another takes the same font up (an assertion in
    /// `cairo_scaled_font_destroy` aborts; mended in cairo 1.17). Renderers on several threads (the
    /// parallel render tests) take turns through this lock for all that reaches Pango's fonts.
    static let fonts = RecursiveLock()

    /// How many characters of the text no installed font can draw (they would show as boxes).
    public func missingGlyphs(in text: String) -> Int {
        Self.fonts.withLock {
            layOut(text)
            return Int(pango_layout_get_unknown_glyphs_count(layout))
        }
    }

    /// The smallest size a label is drawn at before it takes two lines (where it has a space to break at).
    public static let smallestLabel = 11.0

    /// A label size no smaller than `smallestLabel` where the key (of height `h`) has room for it.
    func readable(_ size: Double, in h: Double) -> Double {
        max(size, min(Self.smallestLabel, h * 0.4))
    }

    /// How a label is drawn in `maxWidth`: its text (with a line break, if one line would be too small) and
    /// its size, from `size`, shrunk until it fits.
    public func fittedLabel(_ text: String, size: Double, maxWidth: Double) -> (text: String, size: Double) {
        let oneLine = fittedSize(text, size: size, maxWidth: maxWidth)
        guard oneLine < Self.smallestLabel, oneLine < size, let split = Self.middleSpace(of: text) else { return (text, oneLine) }
        var lines = text
        lines.replaceSubrange(split...split, with: "\n")
        let twoLines = fittedSize(lines, size: size, maxWidth: maxWidth)
        return twoLines > oneLine ? (lines, twoLines) : (text, oneLine)
    }

    /// The space nearest the middle of a text, where it breaks best into two lines.
    private static func middleSpace(of text: String) -> String.Index? {
        let middle = text.count / 2
        return text.indices.filter { text[$0] == " " }.min { abs(text.distance(from: text.startIndex, to: $0) - middle)
            < abs(text.distance(from: text.startIndex, to: $1) - middle) }
    }

    /// The size a label of `size` is drawn at: the nearest step at or below it on a ladder of 24 steps an
    /// octave (each 2.9% above the one before), never below `smallestLabel` when `size` is not. Cairo keeps
    /// the glyphs of each size it draws (up to 256 sizes and 16,000 glyphs, with no call that lets them
    /// go), and sizes worked out to the last fraction made new ones for nearly every keyboard size, shrunk
    /// word and suggestion, so that resizing went on growing the keyboard; on the ladder every keyboard
    /// size shares a few dozen sizes (docs/performance.md).
    public static func drawnSize(_ size: Double) -> Double {
        guard size > 0 else { return size }
        let step = pow(2, ((log2(size) * 24) + 1e-9).rounded(.down) / 24)
        return size >= smallestLabel ? max(step, smallestLabel) : step
    }

    /// How wide a line of text is at a size, in pixels.
    func textWidth(_ text: String, size: Double) -> Double {
        Double(lineExtents(of: text).logical.width) / Double(PANGO_SCALE) * Self.drawnSize(size) / Self.layoutSize
    }

    /// The ink and logical rectangles of a text laid out at the layout size, in Pango units.
    private func lineExtents(of text: String) -> (ink: PangoRectangle, logical: PangoRectangle) {
        Self.fonts.withLock {
            layOut(text)
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            return (ink, logical)
        }
    }

    /// The size at which a text fits `maxWidth`, no larger than `size`.
    private func fittedSize(_ text: String, size: Double, maxWidth: Double) -> Double {
        let width = Double(lineExtents(of: text).logical.width) / Double(PANGO_SCALE) * size / Self.layoutSize
        return width > maxWidth ? size * maxWidth / width : size
    }

    /// Draws text centred on (cx, cy), shrinking it until it fits `maxWidth` (on two lines where one would
    /// be too small).
    /// With `centreInk`, the ink (not the line) is centred, for a mark that sits low in its line.
    /// With `alignment`, the text starts at `cx` (leading) or ends there (trailing) instead.
    func drawText(_ text: String, cr: OpaquePointer, size: Double, cx: Double, cy: Double, maxWidth: Double,
                  centreInk: Bool = false, alignment: TextAlignment = .centre) {
        // An emoji: from the colour font's bitmap (KeyboardRenderer+Emoji.swift).
        if Self.mayBeEmoji(text), drawColourGlyph(text, cr: cr, size: size, cx: cx, cy: cy, maxWidth: maxWidth) { return }
        let (shown, exact) = fittedLabel(text, size: size, maxWidth: maxWidth)
        let fitted = Self.drawnSize(exact)
        let (inkRect, logical) = lineExtents(of: shown)
        // Pango units at the layout size to pixels at the fitted size.
        let zoom = fitted / Self.layoutSize
        let scale = Double(PANGO_SCALE) / zoom
        let width = Double(logical.width) / scale
        let height = Double(logical.height) / scale
        let left = switch alignment {
        case .centre: cx - width / 2
        case .leading: cx
        case .trailing: cx - width
        }
        let x = (left - Double(logical.x) / scale).rounded()
        let y = centreInk ? (cy - (Double(inkRect.y) + Double(inkRect.height) / 2) / scale).rounded()
                          : (cy - height / 2 - Double(logical.y) / scale).rounded()
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, zoom, zoom)
        cairo_move_to(cr, 0, 0)
        Self.fonts.withLock {
            layOut(shown)
            pango_cairo_show_layout(cr, layout)
        }
        cairo_restore(cr)
        if report != nil {
            record(shown, size: fitted, ink: (x + Double(inkRect.x) / scale, y + Double(inkRect.y) / scale,
                                              Double(inkRect.width) / scale, Double(inkRect.height) / scale), cr: cr)
        }
    }

    enum TextAlignment { case centre, leading, trailing }
}
