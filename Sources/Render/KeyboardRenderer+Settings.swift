internal import CCairo
internal import KeyboardModel

/// A row of the settings panel, as iOS's Settings draws one: its title and a line of explanation at the
/// left, its value at the right (a switch for what is on or off, the choice's name, an arrow to a page).
/// A row the administrator locked is drawn in the secondary colour, its value without a switch.
extension KeyboardRenderer {
    func paintSettingRow(_ row: SettingRow, value: String, title: String, w: Double, h: Double, cr: OpaquePointer) {
        let inset = max(12, (h * 0.3).rounded())
        let ink = row.locked ? theme.secondaryLabel : theme.label
        let titleSize = readable(min(h * 0.3, 22) * labelScale, in: h)
        let detailSize = readable(min(h * 0.2, 15) * labelScale, in: h)
        let hasDetail = !row.detail.isEmpty && h >= titleSize * 2.6
        // The value's part: a switch, or a word (the choice, an arrow).
        var valueWidth = 0.0
        if case .toggle = row.control, !row.locked {
            let height = min(h * 0.5, 31)
            let width = (height * 1.6).rounded()
            drawSwitch(on: row.isOn, x: w - inset - width, cy: h / 2, width: width, height: height, cr: cr)
            valueWidth = width + inset / 2
        }
        if !value.isEmpty {
            // An action's question and a page's arrow in the label's colour, a value in the secondary one.
            set(cr, [.action, .page].contains(row.control) && !row.locked ? ink : theme.secondaryLabel)
            let maxWidth = w * 0.4
            drawText(value, cr: cr, size: titleSize, cx: w - inset - valueWidth, cy: h / 2, maxWidth: maxWidth,
                     alignment: .trailing)
            valueWidth += min(maxWidth, textWidth(value, size: titleSize)) + inset / 2
        }
        let textWidth = max(w - inset * 2 - valueWidth, w * 0.3)
        set(cr, ink)
        drawText(oneLine(title, maxWidth: textWidth), cr: cr, size: titleSize, cx: inset, cy: hasDetail ? h * 0.36 : h / 2,
                 maxWidth: textWidth, alignment: .leading)
        if hasDetail {
            set(cr, theme.secondaryLabel)
            drawText(oneLine(row.detail, maxWidth: textWidth), cr: cr, size: detailSize, cx: inset, cy: h * 0.7,
                     maxWidth: textWidth, alignment: .leading)
        }
    }

    /// A row's text as one line: what does not fit even at the smallest readable size is cut after a
    /// word, with an ellipsis (two lines do not fit a row's half).
    private func oneLine(_ text: String, maxWidth: Double) -> String {
        var shown = text
        while self.textWidth(shown, size: Self.smallestLabel) > maxWidth, let space = shown.lastIndex(of: " ") {
            var kept = shown[..<space]
            while let last = kept.last, [",", ";", ":", "—"].contains(last) { kept.removeLast() }
            shown = kept + "…"
        }
        return shown
    }

    /// A switch as iOS draws one: a rounded track, the accent's when on, with its knob at the side.
    private func drawSwitch(on: Bool, x: Double, cy: Double, width: Double, height: Double, cr: OpaquePointer) {
        let y = (cy - height / 2).rounded()
        roundedRect(cr, x, y, width, height, height / 2)
        set(cr, on ? theme.accent : theme.functionKey)
        cairo_fill_preserve(cr)
        cairo_set_line_width(cr, 1.5)
        set(cr, theme.shadow)
        cairo_stroke(cr)
        let knob = height - 4
        cairo_new_sub_path(cr)
        cairo_arc(cr, on ? x + width - 2 - knob / 2 : x + 2 + knob / 2, y + height / 2, knob / 2, 0, 2 * .pi)
        set(cr, on ? theme.accentLabel : theme.characterKey)
        cairo_fill_preserve(cr)
        set(cr, theme.shadow)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
    }
}
