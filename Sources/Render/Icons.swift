internal import CCairo
import KeyboardModel

/// The key icons, drawn as vector paths so they are crisp at any size and need no font.
///
/// Each is drawn in a box of `size` pixels centred on (cx, cy), in the current source colour.
enum Icons {
    static func draw(_ icon: KeyIcon, filled: Bool, cr: OpaquePointer, cx: Double, cy: Double, size s: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_line_width(cr, max(1, (s / 14).rounded()))
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // Points are given in units of the box, from -0.5 to 0.5.
        let p = { (x: Double, y: Double) in (cx + x * s, cy + y * s) }
        func polygon(_ points: [(Double, Double)]) {
            for (index, (x, y)) in points.enumerated() {
                let (px, py) = p(x, y)
                if index == 0 { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
            }
            cairo_close_path(cr)
        }
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            let (a, b) = p(x0, y0), (c, d) = p(x1, y1)
            cairo_move_to(cr, a, b)
            cairo_line_to(cr, c, d)
        }

        switch icon {
        case .globe:
            let r = s * 0.42
            cairo_new_sub_path(cr)
            cairo_arc(cr, cx, cy, r, 0, 2 * .pi)
            cairo_stroke(cr)
            // Meridian: an ellipse half as wide as the globe.
            cairo_save(cr)
            cairo_translate(cr, cx, cy)
            cairo_scale(cr, 0.45, 1)
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0, 0, r, 0, 2 * .pi)
            cairo_restore(cr)
            cairo_stroke(cr)
            line(-0.42, 0, 0.42, 0)
            line(0, -0.42, 0, 0.42)
            line(-0.36, -0.21, 0.36, -0.21)
            line(-0.36, 0.21, 0.36, 0.21)
            cairo_stroke(cr)
        case .shift, .capsLock:
            let arrow: [(Double, Double)] = [(0, -0.45), (0.45, 0.02), (0.2, 0.02), (0.2, 0.3),
                                             (-0.2, 0.3), (-0.2, 0.02), (-0.45, 0.02)]
            polygon(arrow)
            if filled || icon == .capsLock { cairo_fill_preserve(cr) }
            cairo_stroke(cr)
            if icon == .capsLock {
                polygon([(-0.2, 0.38), (0.2, 0.38), (0.2, 0.46), (-0.2, 0.46)])
                cairo_fill_preserve(cr)
                cairo_stroke(cr)
            }
        case .delete:
            polygon([(-0.5, 0), (-0.22, -0.3), (0.48, -0.3), (0.48, 0.3), (-0.22, 0.3)])
            cairo_stroke(cr)
            line(0.0, -0.12, 0.24, 0.12)
            line(0.24, -0.12, 0.0, 0.12)
            cairo_stroke(cr)
        case .return:
            cairo_move_to(cr, p(0.4, -0.3).0, p(0.4, -0.3).1)
            cairo_line_to(cr, p(0.4, 0.12).0, p(0.4, 0.12).1)
            cairo_line_to(cr, p(-0.42, 0.12).0, p(-0.42, 0.12).1)
            cairo_stroke(cr)
            line(-0.42, 0.12, -0.2, -0.1)
            line(-0.42, 0.12, -0.2, 0.34)
            cairo_stroke(cr)
        case .dismiss:
            polygon([(-0.5, -0.42), (0.5, -0.42), (0.5, 0.18), (-0.5, 0.18)])
            cairo_stroke(cr)
            for row in 0..<2 {
                for column in 0..<5 {
                    let (x, y) = p(-0.32 + Double(column) * 0.16, -0.24 + Double(row) * 0.17)
                    cairo_rectangle(cr, x - s * 0.035, y - s * 0.035, s * 0.07, s * 0.07)
                }
            }
            cairo_fill(cr)
            line(-0.22, 0.0, 0.22, 0.0)
            cairo_stroke(cr)
            line(-0.14, 0.3, 0, 0.44)
            line(0, 0.44, 0.14, 0.3)
            cairo_stroke(cr)
        case .space:
            cairo_move_to(cr, p(-0.5, -0.1).0, p(-0.5, -0.1).1)
            cairo_line_to(cr, p(-0.5, 0.15).0, p(-0.5, 0.15).1)
            cairo_line_to(cr, p(0.5, 0.15).0, p(0.5, 0.15).1)
            cairo_line_to(cr, p(0.5, -0.1).0, p(0.5, -0.1).1)
            cairo_stroke(cr)
        }
    }
}
