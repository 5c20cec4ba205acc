#if canImport(Glibc)
import Glibc
#endif
internal import CCairo
internal import CPangoCairo
internal import CPangoFc
internal import Trace
public import KeyboardModel

/// Draws a laid-out keyboard and its state onto a surface, with Cairo for shapes and Pango for text.
///
/// One renderer keeps one Pango layout and font description for all its drawing, so a redraw makes no
/// new font objects.
public final class KeyboardRenderer {
    public var theme: Theme {
        didSet { if theme != oldValue { forgetImages() } }
    }
    /// How large labels and icons are drawn, against their usual size (0.5 to 2); a label still shrinks to
    /// fit its key.
    public var labelScale = 1.0 {
        didSet { if labelScale != oldValue { forgetImages() } }
    }
    /// Pango's context, layout and font description, made at the first drawing (`makeText`), so a renderer
    /// made before the fonts are set up waits for nothing until it draws.
    private var text: (context: OpaquePointer, layout: OpaquePointer, font: OpaquePointer)?
    var pangoContext: OpaquePointer { makeText().context }
    var layout: OpaquePointer { makeText().layout }
    var font: OpaquePointer { makeText().font }
    /// Colour glyphs' bitmaps decoded on a thread, ahead of the keys drawn ahead (`decodeAhead`); made
    /// the first time emoji are.
    var decoder: BitmapDecoder?
    /// The colour font's face this renderer loads the glyphs it decodes itself into: its own, not cairo's,
    /// which every font of the process shares (`ColourFace`).
    var colourFace: ColourFace?
    /// The text in `layout` now: a label is measured, then drawn, and laid out once for both.
    private var laidOut = ""

    /// The font family for labels; fontconfig falls back per character, so any script renders.
    public static let fontFamily = "Sans"

    public init(theme: Theme = .light) {
        self.theme = theme
    }

    private func makeText() -> (context: OpaquePointer, layout: OpaquePointer, font: OpaquePointer) {
        if let text { return text }
        // Fontconfig is being set up on a thread of its own (`LabelFonts.prepare`): Pango waits for it.
        LabelFonts.awaitPrepared()
        let pangoContext = pango_font_map_create_context(pango_cairo_font_map_get_default())!
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        // Outlines as designed, at any size: no grid fitting (and no TrueType hinting bytecode to run,
        // which was a quarter of the CPU time of start-up).
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(pangoContext, options)
        cairo_font_options_destroy(options)
        let layout = pango_layout_new(pangoContext)!
        let font = pango_font_description_from_string(Self.fontFamily)!
        // Every label is laid out at one size and scaled by Cairo to the size it is drawn at: fontconfig
        // matches the fonts once, not once per size. Without hinting, outlines and metrics scale exactly.
        pango_font_description_set_absolute_size(font, Self.layoutSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        let made = (context: pangoContext, layout: layout, font: font)
        text = made
        return made
    }

    /// Puts a text in the layout, unless it is there already; called with `fonts` held, as everything that
    /// then uses the layout is. Text the one-font configuration cannot draw as the system would (see
    /// `LabelFonts`) first makes the whole configuration read.
    func layOut(_ text: String) {
        guard text != laidOut else { return }
        widenFontsUnlessCovered(text)
        pango_layout_set_text(layout, text, -1)
        if LabelFonts.isNarrow && pango_layout_get_unknown_glyphs_count(layout) > 0 {
            widenFonts()
            pango_layout_set_text(layout, text, -1)
        }
        laidOut = text
    }

    /// Makes the whole font configuration read when the one-font configuration lacks a character of
    /// `text` (once).
    func widenFontsUnlessCovered(_ text: String) {
        if LabelFonts.isNarrow && !LabelFonts.narrowCovers(text) { widenFonts() }
    }

    private func widenFonts() {
        LabelFonts.widen()
        pango_layout_context_changed(layout)
    }

    /// Writes the record of the labels' font (`LabelFonts`), so the next start need not read the whole font
    /// configuration, and from then on draws with the one-font configuration it describes, as later starts
    /// do, when `labels` (the text drawn so far) are all that font's; does nothing when this start used the
    /// record.
    public func rememberFonts(at path: String, labels: [String]) throws(LabelFonts.Problem) {
        guard !LabelFonts.isNarrow, !LabelFonts.recordHeld else { return }
        try Self.fonts.withLock { () throws(LabelFonts.Problem) in
            guard let loaded = pango_font_map_load_font(pango_cairo_font_map_get_default(), pangoContext, font) else {
                throw LabelFonts.Problem(description: "Pango found no font for the labels")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
            // The font an emoji is shaped with (the record keeps it if it is a colour font).
            let emoji = colourGlyph("😀").map(\.0)
            defer { if let emoji { g_object_unref(UnsafeMutableRawPointer(emoji)) } }
            guard let record = try LabelFonts.writeRecord(for: OpaquePointer(loaded), emoji: emoji, at: path) else { return }
            Trace.step("fonts recorded")
            LabelFonts.narrow(to: record, labels: labels)
        }
    }

    /// The one size (in pixels) labels are laid out at.
    static let layoutSize = 64.0

    deinit {
        forgetImages()
        if let (context, layout, font) = text {
            Self.fonts.withLock {
                pango_font_description_free(font)
                g_object_unref(UnsafeMutableRawPointer(layout))
                g_object_unref(UnsafeMutableRawPointer(context))
            }
        }
    }

    /// Draws the whole keyboard, popups on top.
    public func draw(_ geometry: KeyboardGeometry, state: KeyboardState = KeyboardState(),
                     on surface: Surface) throws(RenderError) {
        try redraw([Rect(x: 0, y: 0, width: geometry.width, height: geometry.height)], of: geometry,
                   state: state, on: surface)
    }

    /// Redraws one key and nothing else, as after a press or release.
    public func redrawKey(_ index: Int, of geometry: KeyboardGeometry, state: KeyboardState,
                          on surface: Surface) throws(RenderError) {
        try redraw([Self.keyArea(geometry.keys[index].rect)], of: geometry, state: state, on: surface)
    }

    /// The area a key's (or a popup's) drawing covers: its rectangle and its shadow, one pixel below.
    public static func keyArea(_ rect: Rect) -> Rect {
        Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height + 1)
    }

    /// Redraws the given areas: background, the keys that touch them, and (unless `popups` is false)
    /// the popups over them.
    public func redraw(_ areas: [Rect], of geometry: KeyboardGeometry, state: KeyboardState,
                       on surface: Surface, popups: Bool = true) throws(RenderError) {
        // At a new size every key has a new look: the old images would only take memory.
        if imagesSize.width != geometry.width || imagesSize.height != geometry.height {
            forgetImages()
            imagesSize = (geometry.width, geometry.height)
        }
        defer { forgetFaces() }
        let drawn = areas.filter { !copiedKey(over: $0, of: geometry, state: state, on: surface, popups: popups) }
        if !drawn.isEmpty { try withContext(surface) { cr in
            for area in drawn {
                cairo_save(cr)
                cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
                cairo_clip(cr)
                set(cr, theme.background)
                cairo_paint(cr)
                for (index, key) in geometry.keys.enumerated() where Self.keyArea(key.rect).intersects(area) {
                    drawKey(geometry, index: index, state: state, cr: cr)
                }
                if popups {
                    for popup in state.popups where PopupLayout.rect(for: popup, in: geometry).intersects(area) {
                        drawPopup(popup, geometry: geometry, cr: cr)
                    }
                }
                cairo_restore(cr)
            }
        } }
        if popups { try drawTrail(state.trail, over: areas, of: geometry, on: surface) }
    }

    /// Puts a key on the surface as one copy of its kept image (`Surface.imagePlacer`), where the area is
    /// the key's own and nothing else is drawn in it: a press or release. True when it was copied.
    private func copiedKey(over area: Rect, of geometry: KeyboardGeometry, state: KeyboardState, on surface: Surface,
                           popups: Bool) -> Bool {
        guard surface.imagePlacer != nil, !drawsInPlace else { return false }
        var found: Int?
        for (index, key) in geometry.keys.enumerated() where Self.keyArea(key.rect).intersects(area) {
            guard found == nil else { return false }
            found = index
        }
        guard let index = found, Self.keyArea(geometry.keys[index].rect) == area,
              !geometry.keys[index].function.isSuggestion,
              !popups || !state.popups.contains(where: { PopupLayout.rect(for: $0, in: geometry).intersects(area) }),
              let image = images.use(.key(keyLook(geometry, index: index, state: state))) else { return false }
        return placed(image, at: area, clip: area, on: surface)
    }

    /// Puts a kept image on the surface through its `imagePlacer`, and tells cairo those pixels changed.
    private func placed(_ image: OpaquePointer, at area: Rect, clip: Rect, on surface: Surface) -> Bool {
        guard let place = surface.imagePlacer, let changed = area.intersection(clip),
              place(image, area, changed) else { return false }
        cairo_surface_mark_dirty_rectangle(surface.surface, Int32(changed.x), Int32(changed.y), Int32(changed.width),
                                           Int32(changed.height))
        return true
    }

    /// Draws only the popups, clipped to the given areas, over what the surface holds. A balloon already
    /// drawn is put from its kept image (a held key's press runs no cairo code); in each area, once one
    /// popup cannot be, it and those above it are drawn with cairo, in their order.
    public func drawPopups(over areas: [Rect], of geometry: KeyboardGeometry, state: KeyboardState,
                           on surface: Surface) throws(RenderError) {
        guard !state.popups.isEmpty else { return }
        var left: [(area: Rect, popups: ArraySlice<Popup>)] = []
        for area in areas {
            let popups = state.popups.filter { PopupLayout.rect(for: $0, in: geometry).intersects(area) }
            let placedCount = popups.prefix { placedPreview($0, of: geometry, clip: area, on: surface) }.count
            if placedCount < popups.count { left.append((area, popups[placedCount...])) }
        }
        guard !left.isEmpty else { return }
        try withContext(surface) { cr in
            for (area, popups) in left {
                cairo_save(cr)
                cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
                cairo_clip(cr)
                for popup in popups { drawPopup(popup, geometry: geometry, cr: cr) }
                cairo_restore(cr)
            }
        }
    }

    /// Puts a preview whose image is kept on the surface, inside `clip`; false for any other popup.
    private func placedPreview(_ popup: Popup, of geometry: KeyboardGeometry, clip: Rect, on surface: Surface) -> Bool {
        guard surface.imagePlacer != nil, !drawsInPlace, let (look, area) = previewLook(popup, in: geometry),
              let image = images.use(look) else { return false }
        return placed(image, at: area, clip: clip, on: surface)
    }

    func withContext(_ surface: Surface, _ body: (OpaquePointer) -> Void) throws(RenderError) {
        guard let cr = cairo_create(surface.surface) else { throw .cairo("no context") }
        defer { cairo_destroy(cr) }
        try RenderError.check(cairo_status(cr))
        body(cr)
        cairo_surface_flush(surface.surface)
        try RenderError.check(cairo_status(cr))
    }

    // MARK: - Keys

    /// Keys and preview bubbles already drawn, each an image of its own size with its shadow, so a press or
    /// release copies an image instead of shaping text and filling paths again. The images are made like the
    /// surface drawn on (`cairo_surface_create_similar`): on a window they are X pixmaps, and the copy happens
    /// in the X server.
    var images = RecentImages<Look, OpaquePointer>(limit: imageLimit)
    /// Key faces shared by the keys drawn in one redraw (`faceImage`), let go at its end.
    var faces: [FaceLook: OpaquePointer] = [:]
    /// While a label report is made (`labels(of:state:)`): the labels drawn so far, and the area the
    /// current one belongs in, in device coordinates.
    var report: [DrawnLabel]?
    var labelBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Keys not drawn yet are drawn straight onto the surface, not into an image kept for the next time:
    /// for the first frame, which a person waits for (each image is an X pixmap made, drawn and copied).
    public var drawsInPlace = false
    /// The keyboard size the images were drawn for.
    var imagesSize = (width: 0, height: 0)

    private func drawKey(_ geometry: KeyboardGeometry, index: Int, state: KeyboardState, cr: OpaquePointer) {
        let key = geometry.keys[index]
        if case .suggestion(let slot) = key.function {
            drawSlot(geometry, index: index, slot: slot, state: state, cr: cr)
            return
        }
        let look = keyLook(geometry, index: index, state: state)
        let area = Self.keyArea(key.rect)
        drawCached(.key(look), x: area.x, y: area.y, width: area.width, height: area.height, cr: cr) { cr in
            paintKey(look, cr: cr)
        }
    }

    func set(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// A rounded rectangle at the origin filled with `fill`, over its shadow one pixel below: a key's or a
    /// popup's face.
    func fillWithShadow(_ cr: OpaquePointer, _ w: Double, _ h: Double, _ radius: Double, _ fill: Color) {
        roundedRect(cr, 0, 1, w, h, radius)
        set(cr, theme.shadow)
        cairo_fill(cr)
        roundedRect(cr, 0, 0, w, h, radius)
        set(cr, fill)
        cairo_fill(cr)
    }

    func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
}
