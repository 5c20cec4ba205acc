internal import CCairo

extension KeyboardRenderer {
    /// Draws the button that brings a dismissed keyboard back: a disc of the key colour, edged for contrast
    /// with whatever lies behind it, with a small keyboard in the middle (a key outline and three rows of
    /// keys, the last a space bar). Fills the surface; the window is shaped to the disc.
    public func drawShowButton(on surface: Surface) throws(RenderError) {
        try withContext(surface) { cr in
            let size = Double(min(surface.width, surface.height))
            let centre = size / 2
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            set(cr, theme.shadow)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            cairo_arc(cr, centre, centre, centre - 1, 0, 2 * .pi)
            set(cr, theme.characterKey)
            cairo_fill(cr)

            // The keyboard: 56% of the disc wide, 38% high.
            let width = size * 0.56, height = size * 0.38
            let left = centre - width / 2, top = centre - height / 2
            let line = max(1.5, size / 32)
            cairo_set_line_width(cr, line)
            roundedRect(cr, left, top, width, height, line * 1.5)
            set(cr, theme.label)
            cairo_stroke(cr)
            let columns = 5, gap = width / Double(columns * 3)
            let key = (width - gap * Double(columns + 1)) / Double(columns)
            let rowHeight = (height - gap * 4) / 3
            for row in 0..<2 {
                for column in 0..<columns {
                    cairo_rectangle(cr, left + gap + Double(column) * (key + gap),
                                    top + gap + Double(row) * (rowHeight + gap), key, rowHeight)
                }
            }
            cairo_rectangle(cr, left + gap + key + gap, top + gap + 2 * (rowHeight + gap), 3 * key + 2 * gap, rowHeight)
            cairo_fill(cr)
        }
    }
}
