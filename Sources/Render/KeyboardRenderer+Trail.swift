internal import CCairo
public import KeyboardModel

/// The trail a stroke across the keys leaves (slide to type): a line in the theme's accent colour that
/// thins and fades toward its older end.
extension KeyboardRenderer {
    /// How wide the trail is drawn on keys laid out as `geometry`.
    public static func trailWidth(for geometry: KeyboardGeometry) -> Double {
        max(4, Double(geometry.keyHeight) * 0.14)
    }

    /// The area the trail covers, or nil when there is none.
    public static func trailArea(_ trail: Trail, in geometry: KeyboardGeometry) -> Rect? {
        trail.area(width: trailWidth(for: geometry))
    }

    /// Draws the trail over what the surface holds, within `areas` (the ones drawn afresh: elsewhere the
    /// trail is on the surface already).
    public func drawTrail(_ trail: Trail, over areas: [Rect], of geometry: KeyboardGeometry, on surface: Surface) throws(RenderError) {
        guard trail.points.count > 1, !areas.isEmpty else { return }
        let width = Self.trailWidth(for: geometry)
        let accent = theme.accent
        try withContext(surface) { cr in
            for area in areas {
                cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            }
            cairo_clip(cr)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            for (from, to) in zip(trail.points, trail.points.dropFirst()) {
                let opacity = trail.opacity(of: to)
                guard opacity > 0 else { continue }
                cairo_set_source_rgba(cr, accent.red, accent.green, accent.blue, accent.alpha * opacity)
                cairo_set_line_width(cr, width * (0.35 + 0.65 * opacity))
                cairo_move_to(cr, from.x, from.y)
                cairo_line_to(cr, to.x, to.y)
                cairo_stroke(cr)
            }
        }
    }
}
