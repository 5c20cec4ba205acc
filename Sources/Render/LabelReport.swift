internal import CCairo
public import KeyboardModel

/// A label as drawn: its text (with a line break where it took two lines), its size, the rectangle its
/// ink covers and the area it belongs in (its key, slot or popup cell), in the keyboard's pixels where
/// the keyboard is drawn in place, or in the key's own where the key is drawn as an image of its own.
public struct DrawnLabel: Sendable {
    public var text: String
    /// The font's size in pixels.
    public var size: Double
    public var ink: (x: Double, y: Double, width: Double, height: Double)
    public var box: Rect

    /// Whether the ink stays inside its area (to half a pixel, for antialiasing).
    public var isInside: Bool {
        ink.x >= Double(box.x) - 0.5 && ink.y >= Double(box.y) - 0.5
            && ink.x + ink.width <= Double(box.maxX) + 0.5 && ink.y + ink.height <= Double(box.maxY) + 0.5
    }
}

extension KeyboardRenderer {
    /// Every label a keyboard in this state shows (keys, bar, popups), as a fresh drawing draws them: for
    /// tests of size and fit.
    public func labels(of geometry: KeyboardGeometry, state: KeyboardState = KeyboardState()) throws(RenderError) -> [DrawnLabel] {
        let fresh = KeyboardRenderer(theme: theme)
        fresh.labelScale = labelScale
        fresh.report = []
        try fresh.draw(geometry, state: state, on: try Surface(width: geometry.width, height: geometry.height))
        return fresh.report ?? []
    }

    /// The area the labels drawn next belong in: (x, y, w, h) in the context's user space.
    func beginLabels(in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        guard report != nil else { return }
        var (x0, y0, x1, y1) = (x, y, x + width, y + height)
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        labelBox = Rect(x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()),
                        height: Int((y1 - y0).rounded()))
    }

    func record(_ text: String, size: Double, ink: (Double, Double, Double, Double), cr: OpaquePointer) {
        var (x0, y0, x1, y1) = (ink.0, ink.1, ink.0 + ink.2, ink.1 + ink.3)
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        report?.append(DrawnLabel(text: text, size: size, ink: (x0, y0, x1 - x0, y1 - y0), box: labelBox))
    }
}
