internal import CCairo
public import KeyboardModel

/// The trail a stroke across the keys leaves (slide to type): a line in the theme's accent colour that
/// thins and fades toward its older end.
extension KeyboardRenderer {
    /// How many steps of opacity the trail fades in.
    static let trailSteps = 6.0

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
            // Segments of one step of opacity go as one line: a line stroked once covers its joints once,
            // where segments stroked each on its own would darken every joint they overlap at.
            func level(_ point: Trail.Point) -> Double { (trail.opacity(of: point) * Self.trailSteps).rounded(.up) / Self.trailSteps }
            var index = 1
            while index < trail.points.count {
                let opacity = level(trail.points[index])
                var end = index
                while end + 1 < trail.points.count, level(trail.points[end + 1]) == opacity { end += 1 }
                if opacity > 0 {
                    cairo_set_source_rgba(cr, accent.red, accent.green, accent.blue, accent.alpha * opacity)
                    cairo_set_line_width(cr, width * (0.35 + 0.65 * opacity))
                    cairo_move_to(cr, trail.points[index - 1].x, trail.points[index - 1].y)
                    for point in trail.points[index...end] { cairo_line_to(cr, point.x, point.y) }
                    cairo_stroke(cr)
                }
                index = end + 1
            }
        }
    }
}
