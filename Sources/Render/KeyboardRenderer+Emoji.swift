#if canImport(Glibc)
import Glibc
#endif
internal import CCairo
internal import CPangoCairo
internal import CPangoFc
public import KeyboardModel

/// Emoji keys: drawn from the colour font's bitmap.
extension KeyboardRenderer {
    /// Draws a label that is one colour glyph (an emoji: on a key, a group's tab, a balloon, a skin tone)
    /// at `size`, centred on (cx, cy) and no wider than `maxWidth`, from the font's bitmap, decoded here (or
    /// ahead, on the decoder's thread: `decodeAhead`) and dropped once drawn; false when the label is not
    /// one colour glyph (`drawText` lays it out then). Drawn by cairo, each emoji's image would stay in
    /// cairo's glyph cache for good: some 20 MiB once every page has been seen, while the key images the
    /// renderer keeps (`images`) are what a redraw copies.
    ///
    /// The label is shaped, not laid out: a layout measures its glyphs through cairo, which decodes a
    /// colour glyph's PNG for that, and then this decodes it again to draw it. Shaping (HarfBuzz) finds the
    /// glyph (a ZWJ family, a flag, a toned hand: one glyph) and its font from the font's tables alone.
    func drawColourGlyph(_ text: String, cr: OpaquePointer, size: Double, cx: Double, cy: Double,
                         maxWidth: Double) -> Bool {
        withColourFace(text) { face, glyph -> Bool in
            guard let strike = face.pointee.size?.pointee.metrics.y_ppem, strike > 0 else { return false }
            // Decoded ahead on the decoder's thread, or here.
            let decoded = decoder.flatMap { Self.decodes($0, face: face) ? $0.take(glyph) : nil }
            defer { decoded?.free() }
            guard let bitmap = decoded ?? BitmapDecoder.load(glyph, face: ownFace(like: face)?.face ?? face) else {
                return false
            }
            let pixels = bitmap.pixels
            let width = Double(bitmap.width), height = Double(bitmap.rows)
            // FreeType's BGRA is premultiplied, as cairo's ARGB32 is in memory.
            guard let image = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(bitmap.width),
                                                                  Int32(bitmap.rows), Int32(bitmap.pitch)) else { return false }
            defer { cairo_surface_destroy(image) }
            guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return false }
            let scale = min(size / Double(strike), maxWidth / width)
            let x = (cx - width * scale / 2).rounded(), y = (cy - height * scale / 2).rounded()
            cairo_save(cr)
            if let small = shrunk(pixels, width: bitmap.width, height: bitmap.rows, pitch: bitmap.pitch,
                                  scale: scale, cr: cr) {
                cairo_set_source_surface(cr, small, x, y)
                cairo_surface_destroy(small)
            } else {
                cairo_translate(cr, x, y)
                cairo_scale(cr, scale, scale)
                cairo_set_source_surface(cr, image, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            }
            cairo_paint(cr)
            cairo_restore(cr)
            if report != nil { record(text, size: scale * Double(strike), ink: (x, y, width * scale, height * scale), cr: cr) }
            return true
        } ?? false
    }

    /// The bitmap made `scale` times as large by `AreaShrink`, as an image to paint unscaled; nil where
    /// cairo scales it: a bitmap drawn larger or little smaller (its GOOD filter is bilinear there, and
    /// cheap), or a context whose pixels are not whole device pixels.
    private func shrunk(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, pitch: Int, scale: Double,
                        cr: OpaquePointer) -> OpaquePointer? {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        guard scale < 0.75, matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0,
              matrix.x0.rounded() == matrix.x0, matrix.y0.rounded() == matrix.y0,
              let shrink = AreaShrink(width: width, height: height, scale: scale),
              let small = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(shrink.width), Int32(shrink.height))
        else { return nil }
        guard cairo_surface_status(small) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(small) else {
            cairo_surface_destroy(small)
            return nil
        }
        cairo_surface_flush(small)
        shrink.shrink(pixels, pitch: pitch, into: data, stride: Int(cairo_image_surface_get_stride(small)))
        cairo_surface_mark_dirty(small)
        return small
    }

    /// Has the colour glyphs of these keys, drawn ahead next (`prepareKey`, in this order), decoded on the
    /// decoder's thread meanwhile (`BitmapDecoder`); keys whose image is made already, or that are not one
    /// colour glyph, are left out. Shaping each label finds its glyph: some microseconds, and the colour
    /// font loaded the first time.
    public func decodeAhead(_ keys: [(geometry: KeyboardGeometry, key: Int)]) {
        var glyphs: [UInt32] = []
        for (geometry, index) in keys where imagesSize == (geometry.width, geometry.height) {
            let look = keyLook(geometry, index: index, state: KeyboardState())
            guard !images.contains(.key(look)), let label = look.label, Self.mayBeEmoji(label) else { continue }
            withColourFace(label) { face, glyph in
                if decoder(for: face) != nil { glyphs.append(glyph) }
            }
        }
        decoder?.want(glyphs)
    }

    /// The decoder of the face's bitmaps: the one there, or a new one for this face (a colour font's face
    /// of a file, with a strike selected); nil when there is none (a face not read from a file).
    private func decoder(for face: FT_Face) -> BitmapDecoder? {
        if let decoder, Self.decodes(decoder, face: face) { return decoder }
        guard let path = face.pointee.stream?.pointee.pathname.pointer,
              let strike = face.pointee.size?.pointee.metrics.y_ppem else { return nil }
        decoder = BitmapDecoder(file: String(cString: path.assumingMemoryBound(to: CChar.self)),
                                index: Int(face.pointee.face_index & 0xFFFF), strike: Int(strike))
        return decoder
    }

    /// A face of the renderer's own of the same file, face and strike as cairo's `face`, opened the first
    /// time; nil when it cannot be (cairo's is used then, as only this thread draws in the program).
    private func ownFace(like face: FT_Face) -> ColourFace? {
        guard let path = face.pointee.stream?.pointee.pathname.pointer,
              let strike = face.pointee.size?.pointee.metrics.y_ppem else { return nil }
        let file = String(cString: path.assumingMemoryBound(to: CChar.self))
        let index = Int(face.pointee.face_index & 0xFFFF)
        if let colourFace, colourFace.file == file, colourFace.index == index, colourFace.strike == Int(strike) {
            return colourFace
        }
        colourFace = ColourFace(file: file, index: index, strike: Int(strike))
        return colourFace
    }

    /// Whether `decoder` decodes the bitmaps of this face: its file, face and strike.
    static func decodes(_ decoder: BitmapDecoder, face: FT_Face) -> Bool {
        guard let path = face.pointee.stream?.pointee.pathname.pointer else { return false }
        return Int(face.pointee.size?.pointee.metrics.y_ppem ?? 0) == decoder.strike
            && Int(face.pointee.face_index & 0xFFFF) == decoder.index
            && strcmp(path.assumingMemoryBound(to: CChar.self), decoder.file) == 0
    }

    /// Whether a label may be an emoji: it holds a character shown as an emoji by default (a flag's
    /// letters too), or the selector that asks for one (keycaps). Letters and words never do, and are not
    /// shaped twice.
    static func mayBeEmoji(_ label: String) -> Bool {
        label.unicodeScalars.contains(where: asksForEmoji)
    }

    /// A character shown as an emoji by default, or the selector that asks for one.
    static func asksForEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation
    }

    /// Whether `text` is drawn from the colour font's bitmap: one glyph of a colour font.
    func isOneColourGlyph(_ text: String) -> Bool {
        withColourFace(text) { _, _ in true } ?? false
    }

    /// Runs `body` with the colour font's face, locked, and the one glyph `text` shapes to in it; nil when
    /// `text` is not one glyph of a colour font.
    func withColourFace<Result>(_ text: String, _ body: (FT_Face, UInt32) -> Result) -> Result? {
        Self.fonts.withLock {
            guard let (font, glyph) = colourGlyph(text) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(font)) }
            guard let scaled = pango_cairo_font_get_scaled_font(font),
                  let face = cairo_ft_scaled_font_lock_face(scaled) else { return nil }
            defer { cairo_ft_scaled_font_unlock_face(scaled) }
            guard face.pointee.face_flags & (1 << 14) != 0 else { return nil }   // FT_FACE_FLAG_COLOR
            return body(face, glyph)
        }
    }

    /// The one glyph `text` shapes to and the font it is in (a reference the caller lets go of), as the
    /// labels' layout would choose them; nil when the text is more than one glyph of one font, or one the
    /// fonts lack.
    func colourGlyph(_ text: String) -> (OpaquePointer, UInt32)? {
        Self.fonts.withLock { () -> (OpaquePointer, UInt32)? in
            widenFontsUnlessCovered(text)
            let length = Int32(text.utf8.count)
            guard length > 0, let attributes = pango_attr_list_new() else { return nil }
            defer { pango_attr_list_unref(attributes) }
            pango_attr_list_insert(attributes, pango_attr_font_desc_new(font))
            // One C string for both calls: the shaper checks that the item lies within the paragraph.
            return text.withCString { chars -> (OpaquePointer, UInt32)? in
                guard let items = pango_itemize(pangoContext, chars, 0, length, attributes, nil) else { return nil }
                defer { g_list_free_full(items) { pango_item_free($0?.assumingMemoryBound(to: PangoItem.self)) } }
                guard items.pointee.next == nil, let item = items.pointee.data?.assumingMemoryBound(to: PangoItem.self),
                      let font = item.pointee.analysis.font, let glyphs = pango_glyph_string_new() else { return nil }
                defer { pango_glyph_string_free(glyphs) }
                pango_shape_with_flags(chars, length, chars, length, &item.pointee.analysis, glyphs, PANGO_SHAPE_NONE)
                guard glyphs.pointee.num_glyphs == 1 else { return nil }
                let glyph = glyphs.pointee.glyphs[0].glyph
                guard glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 else { return nil }
                g_object_ref(UnsafeMutableRawPointer(font))
                return (OpaquePointer(font), glyph)
            }
        }
    }
}
