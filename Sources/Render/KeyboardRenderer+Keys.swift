internal import CCairo
internal import KeyboardModel

/// How one key is painted: its face, shadow and outline, the marks of its state (scanning's frame, dwell's
/// ring, a locked modifier's light) and its label, icon or secondary label.
extension KeyboardRenderer {
    /// Labels with a short form for keys too narrow to show them at a readable size.
    static let shortLabels = ["Emergency call": "SOS"]

    /// Draws a key with its top-left corner at the origin.
    func paintKey(_ key: KeyLook, cr: OpaquePointer) {
        var fill: Color
        var ink = theme.label
        switch key.style {
        case .character: fill = key.pressed ? theme.functionKey : theme.characterKey
        case .function: fill = key.pressed || key.latched ? theme.characterKey : theme.functionKey
        case .prominent:
            fill = key.pressed ? theme.characterKey : theme.accent
            ink = key.pressed ? theme.label : theme.accentLabel
        }

        let (w, h) = (Double(key.width), Double(key.height))
        beginLabels(in: cr, x: 0, y: 0, width: w, height: h)
        let radius = Self.cornerRadius(w, h)
        if key.flat {
            // A bar's button: its icon on the background; a face only while pressed or scanned.
            if key.pressed || key.scanned {
                let inset = max(2, (h * 0.08).rounded())
                roundedRect(cr, inset, inset, w - 2 * inset, h - 2 * inset, min(8, h * 0.2))
                set(cr, key.pressed ? theme.functionKey : theme.characterKey)
                cairo_fill(cr)
            }
            if key.scanned {
                let line = max(3, (h * 0.09).rounded())
                roundedRect(cr, line / 2, line / 2, w - line, h - line, max(radius - line / 2, 1))
                cairo_set_line_width(cr, line)
                set(cr, theme.accent)
                cairo_stroke(cr)
            }
            if let icon = key.icon {
                set(cr, theme.label)
                Icons.draw(icon, filled: false, cr: cr, cx: (w / 2).rounded(), cy: (h / 2).rounded(),
                           size: min(h * 0.5 * labelScale, w * 0.62).rounded())
            } else if let label = key.label {
                // An emoji: large, in its own colours.
                set(cr, theme.label)
                let size = min(h * 0.58 * labelScale, w * 0.72)
                drawText(label, cr: cr, size: size, cx: w / 2, cy: h / 2, maxWidth: w * 0.9)
            }
            if key.dwell > 0 { drawDwell(key.dwell, w: w, h: h, cr: cr) }
            return
        }
        if key.setting != nil { fill = key.pressed ? theme.functionKey : theme.characterKey }
        let face = FaceLook(width: key.width, height: key.height, fill: fill)
        if let image = faceImage(face, like: cr) {
            cairo_set_source_surface(cr, image, 0, 0)
            cairo_rectangle(cr, 0, 0, w, h + 1)
            cairo_fill(cr)
        } else {
            paintFace(face, cr: cr)
        }

        if key.scanned {
            // Switch scanning's highlight: a thick frame in the accent colour, inside the key.
            let line = max(3, (min(w, h) * 0.09).rounded())
            roundedRect(cr, line / 2, line / 2, w - line, h - line, max(radius - line / 2, 1))
            cairo_set_line_width(cr, line)
            set(cr, theme.accent)
            cairo_stroke(cr)
        }
        if key.dwell > 0 { drawDwell(key.dwell, w: w, h: h, cr: cr) }
        if key.locked {
            // The light of a locked modifier, under its label.
            let width = min(w * 0.3, 24), height = max(2, (h * 0.05).rounded())
            roundedRect(cr, (w - width) / 2, h - height * 2.5, width, height, height / 2)
            set(cr, theme.accent)
            cairo_fill(cr)
        }

        if let row = key.setting {
            paintSettingRow(row, value: key.secondary ?? "", title: key.label ?? "", w: w, h: h, cr: cr)
            return
        }
        set(cr, ink)
        let cx = w / 2
        let cy = h / 2
        if let icon = key.icon {
            let size = min(h * 0.42 * labelScale, w * 0.62, h * 0.8)
            Icons.draw(icon, filled: key.latched, cr: cr, cx: cx.rounded(), cy: cy.rounded(), size: size.rounded())
            return
        }
        guard let label = key.label else { return }
        let single = label.count == 1
        let maxWidth = w * (single ? 0.86 : 0.84)
        var size = readable(min(h * (single ? (key.compact ? 0.5 : 0.4) : 0.3) * labelScale, h * 0.7), in: h)
        guard key.secondary != nil || key.secondaryBelow else {
            // A long word that would not be readable on a narrow key gives way to its short form.
            var shown = label
            if let short = Self.shortLabels[label],
               fittedLabel(label, size: size, maxWidth: maxWidth).size < min(Self.smallestLabel, size) {
                shown = short
            }
            drawText(shown, cr: cr, size: size, cx: cx, cy: cy, maxWidth: maxWidth)
            return
        }
        // Phone letters go under the digit (and a pad's digit with none sits as high as the others); a
        // shifted character goes above the key's own.
        let secondary = key.secondary ?? ""
        let below = key.secondaryBelow
        size = readable(min(size * 0.85, h * 0.45), in: h)
        let small = readable(min(h * (below ? 0.2 : 0.25) * labelScale, h * 0.3), in: h)
        if below && (label == "." || label == ",") {
            // A pad's decimal point: as large and as high as iOS draws it, not a dot on the baseline.
            drawText(label, cr: cr, size: size * 2.4, cx: cx, cy: cy - h * 0.1, maxWidth: maxWidth, centreInk: true)
        } else if below {
            drawText(label, cr: cr, size: size, cx: cx, cy: cy - h * 0.1, maxWidth: maxWidth)
            set(cr, key.style == .prominent ? ink : theme.secondaryLabel)
            drawText(secondary, cr: cr, size: small, cx: cx, cy: cy + h * 0.27, maxWidth: maxWidth)
        } else {
            set(cr, theme.secondaryLabel)
            drawText(secondary, cr: cr, size: small, cx: cx, cy: cy - h * 0.24, maxWidth: maxWidth)
            set(cr, ink)
            drawText(label, cr: cr, size: size, cx: cx, cy: cy + h * 0.1, maxWidth: maxWidth)
        }
    }

    /// Dwell filling: a ring round the label, clockwise from the top, `twentieths` of the way round.
    private func drawDwell(_ twentieths: Int, w: Double, h: Double, cr: OpaquePointer) {
        let radius = min(w, h) * 0.42, line = max(2, (min(w, h) * 0.06).rounded())
        cairo_new_sub_path(cr)
        cairo_arc(cr, w / 2, h / 2, radius, -.pi / 2, -.pi / 2 + 2 * .pi * Double(twentieths) / 20)
        cairo_set_line_width(cr, line)
        set(cr, theme.accent)
        cairo_stroke(cr)
    }

    // MARK: - Faces

    /// A key's face: its shadow one pixel below, its fill and the theme's outline, on `width` x `height + 1`.
    struct FaceLook: Hashable {
        var width: Int
        var height: Int
        var fill: Color
    }

    /// The face's image while keys are drawn (`faces`), made like the surface of `cr`; nil without memory.
    /// Keys of one size and colour share it: the first frame fills two rounded rectangles for each of some
    /// 40 keys otherwise, but its keys come in a few sizes.
    func faceImage(_ face: FaceLook, like cr: OpaquePointer) -> OpaquePointer? {
        if let image = faces[face] { return image }
        let made = image(width: face.width, height: face.height + 1, like: cr) { paintFace(face, cr: $0) }
        faces[face] = made
        return made
    }

    /// A key's corners: rounder on larger keys, within 3 to 10 pixels.
    static func cornerRadius(_ w: Double, _ h: Double) -> Double { min(max(min(w, h) * 0.12, 3), 10) }

    func paintFace(_ face: FaceLook, cr: OpaquePointer) {
        let (w, h) = (Double(face.width), Double(face.height))
        let radius = Self.cornerRadius(w, h)
        fillWithShadow(cr, w, h, radius, face.fill)
        if theme.outline > 0 {
            let inset = theme.outline / 2
            roundedRect(cr, inset, inset, w - theme.outline, h - theme.outline, max(radius - inset, 1))
            cairo_set_line_width(cr, theme.outline)
            set(cr, theme.shadow)
            cairo_stroke(cr)
        }
    }

    /// Lets the faces go once a redraw is done: each is a copy's source for as long as keys are drawn.
    func forgetFaces() {
        for image in faces.values { cairo_surface_destroy(image) }
        faces = [:]
    }
}
