internal import CCairo
public import KeyboardModel

/// The suggestion bar: three slots on the keyboard's background, divided by thin lines, as on iOS. The
/// word as typed is in quotes when a correction is offered; the correction sits on a key's face. Slots
/// are drawn afresh each time (their words change with every tap), not from the image cache.
extension KeyboardRenderer {
    func drawSlot(_ geometry: KeyboardGeometry, index: Int, slot: Int, state: KeyboardState, cr: OpaquePointer) {
        let key = geometry.keys[index]
        let (x, y, w, h) = (Double(key.rect.x), Double(key.rect.y), Double(key.rect.width), Double(key.rect.height))
        let shown = slot < state.bar.count ? state.bar[slot] : nil
        let pressed = state.pressed.contains(index) && shown != nil
        if pressed || shown?.look == .correction || state.scanned.contains(index) {
            let inset = max(2, (h * 0.08).rounded())
            roundedRect(cr, x + inset, y + inset, w - 2 * inset, h - 2 * inset, min(8, h * 0.2))
            set(cr, pressed ? theme.functionKey : theme.characterKey)
            cairo_fill_preserve(cr)
            if state.scanned.contains(index) {
                cairo_set_line_width(cr, max(3, (h * 0.09).rounded()))
                set(cr, theme.accent)
                cairo_stroke(cr)
            } else {
                cairo_new_path(cr)
            }
        }
        // No line beside a slot drawn on a key's face.
        let previousRaised = slot > 0 && slot - 1 < state.bar.count && state.bar[slot - 1].look == .correction
        if slot > 0 && !previousRaised && shown?.look != .correction {
            // The dividing line at the slot's left edge.
            let line = max(1, (h / 40).rounded())
            cairo_rectangle(cr, x.rounded() - line / 2, y + h * 0.25, line, h * 0.5)
            set(cr, theme.secondaryLabel)
            cairo_fill(cr)
        }
        guard let shown, !shown.text.isEmpty else { return }
        beginLabels(in: cr, x: x, y: y, width: w, height: h)
        let text = shown.look == .typed ? "“" + shown.text + "”" : shown.text
        set(cr, theme.label)
        let size = readable(min(h * 0.42 * labelScale, h * 0.7), in: h * 1.25)
        drawText(text, cr: cr, size: size, cx: x + w / 2, cy: y + h / 2, maxWidth: w * 0.9)
    }
}
