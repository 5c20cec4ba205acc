internal import CCairo
public import KeyboardModel

/// The popups over the keys (the preview bubble, the accents, the keyboard list) and the floating
/// keyboard's handle.
extension KeyboardRenderer {
    func drawPopup(_ popup: Popup, geometry: KeyboardGeometry, cr: OpaquePointer) {
        let rect = PopupLayout.rect(for: popup, in: geometry)
        let keyRect = geometry.keys[popup.key].rect
        let keyHeight = keyRect.height
        if let (look, area) = previewLook(popup, in: geometry), case .preview(let label, _, _, let key) = look {
            drawCached(look, x: area.x, y: area.y, width: area.width, height: area.height, cr: cr) { cr in
                if PopupLayout.isBalloon(rect, key: keyRect) {
                    paintBalloon(label, width: Double(rect.width), key: key, cr: cr)
                } else {
                    paintPopup(popup, width: Double(rect.width), height: Double(rect.height), keyHeight: keyHeight, cr: cr)
                }
            }
        } else {
            // Alternates and the keyboard list change with every move of the finger: drawn in place.
            cairo_save(cr)
            cairo_translate(cr, Double(rect.x), Double(rect.y))
            paintPopup(popup, width: Double(rect.width), height: Double(rect.height), keyHeight: keyHeight, cr: cr)
            cairo_restore(cr)
        }
    }

    /// A preview's look, with the key under it in the popup's coordinates (a balloon joins it), and the
    /// area its image covers; nil for any other popup.
    func previewLook(_ popup: Popup, in geometry: KeyboardGeometry) -> (Look, area: Rect)? {
        guard case .preview(let index, let label) = popup else { return nil }
        let rect = PopupLayout.rect(for: popup, in: geometry)
        let keyRect = geometry.keys[index].rect
        let key = Rect(x: keyRect.x - rect.x, y: keyRect.y - rect.y, width: keyRect.width, height: keyRect.height)
        return (.preview(label: label, width: rect.width, height: rect.height, key: key), Self.keyArea(rect))
    }

    /// Draws a preview as iOS does: a bubble with the character, joined by a neck to the key under the
    /// finger, one shape with one shadow; the key is in the popup's coordinates.
    private func paintBalloon(_ label: String, width w: Double, key: Rect, cr: OpaquePointer) {
        let (kx, ky, kw, kh) = (Double(key.x), Double(key.y), Double(key.width), Double(key.height))
        let radius = min(max(min(w, ky) * 0.12, 4), 12)
        let keyRadius = min(max(min(kw, kh) * 0.12, 3), 10)
        // The balloon, `inset` pixels in from its edge (for an outline), `dy` down (for its shadow).
        let shape = { (dy: Double, inset: Double) in
            self.roundedRect(cr, inset, dy + inset, w - 2 * inset, ky + radius - 2 * inset, max(radius - inset, 1))
            self.roundedRect(cr, kx + inset, ky - radius + dy, kw - 2 * inset, kh + radius - inset, max(keyRadius - inset, 1))
        }
        // Nonzero winding: the two overlapping paths fill as one.
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        shape(1, 0)
        set(cr, theme.shadow)
        cairo_fill(cr)
        if theme.outline > 0 {
            // High contrast: an outline round the whole balloon, as round every key.
            shape(0, 0)
            cairo_fill(cr)
        }
        shape(0, theme.outline)
        set(cr, theme.characterKey)
        cairo_fill(cr)
        beginLabels(in: cr, x: 0, y: 0, width: w, height: ky)
        set(cr, theme.label)
        drawText(label, cr: cr, size: min(kh * 0.7, ky * 0.75), cx: w / 2, cy: ky / 2, maxWidth: w * 0.9)
    }

    /// Draws a popup with its top-left corner at the origin.
    private func paintPopup(_ popup: Popup, width w: Double, height h: Double, keyHeight: Int, cr: OpaquePointer) {
        let radius = min(max(min(w, h) * 0.12, 4), 12)
        fillWithShadow(cr, w, h, radius, theme.characterKey)
        // A fine edge inside the popup's area, so a list stands out from the keys under it where they
        // share its colour (dark).
        var edge = theme.label
        edge.alpha = 0.3
        roundedRect(cr, 0.5, 0.5, w - 1, h - 1, max(radius - 0.5, 1))
        set(cr, edge)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        switch popup {
        case .preview(_, let label):
            beginLabels(in: cr, x: 0, y: 0, width: w, height: h)
            set(cr, theme.label)
            drawText(label, cr: cr, size: Double(keyHeight) * 0.7, cx: w / 2, cy: h / 2, maxWidth: w * 0.9)
        case .alternates(_, let options, let selected):
            let (columns, rows) = PopupLayout.grid(options.count)
            let cell = w / Double(columns), row = h / Double(rows)
            for (index, option) in options.enumerated() {
                let x = cell * Double(index % columns), y = row * Double(index / columns)
                if index == selected {
                    roundedRect(cr, x + 2, y + 2, cell - 4, row - 4, radius * 0.7)
                    set(cr, theme.accent)
                    cairo_fill(cr)
                }
                beginLabels(in: cr, x: x, y: y, width: cell, height: row)
                set(cr, index == selected ? theme.accentLabel : theme.label)
                drawText(option, cr: cr, size: min(Double(keyHeight) * 0.5, row * 0.6), cx: x + cell / 2, cy: y + row / 2,
                         maxWidth: cell * 0.9)
            }
        case .keyboards(_, let titles, let selected):
            let row = h / Double(titles.count)
            for (index, title) in titles.enumerated() {
                if index == selected {
                    roundedRect(cr, 2, row * Double(index) + 2, w - 4, row - 4, radius * 0.7)
                    set(cr, theme.accent)
                    cairo_fill(cr)
                }
                beginLabels(in: cr, x: 0, y: row * Double(index), width: w, height: row)
                set(cr, index == selected ? theme.accentLabel : theme.label)
                drawText(title, cr: cr, size: min(row * 0.45, 22), cx: w / 2,
                         cy: row * (Double(index) + 0.5), maxWidth: w * 0.9)
            }
        }
    }

    /// Draws the floating keyboard's handle: its strip of background with a grab bar in the middle.
    public func drawHandle(_ rect: Rect, on surface: Surface) throws(RenderError) {
        try withContext(surface) { cr in
            cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
            set(cr, theme.background)
            cairo_fill(cr)
            let width = min(Double(rect.width) * 0.3, 120), height = 5.0
            roundedRect(cr, Double(rect.x) + (Double(rect.width) - width) / 2,
                        Double(rect.y) + (Double(rect.height) - height) / 2, width, height, height / 2)
            var bar = theme.secondaryLabel
            bar.alpha = 0.6
            set(cr, bar)
            cairo_fill(cr)
        }
    }
}
