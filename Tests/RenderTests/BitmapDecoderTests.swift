#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel
@testable import Render
import Testing

extension Rendering {
    /// Emoji bitmaps decoded on the decoder's thread, ahead of the drawing: the same bytes and the same pixels
    /// as decoded in the drawing, and taken by it.
    @Suite struct BitmapDecoderTests {
        static func page(_ layer: String) throws -> KeyboardGeometry {
            let layout = try EmojiBoard(catalog: try EmojiCatalog()).layout()
            return try KeyboardLayoutEngine.layout(layout, layer: layer, width: 1024, height: 320)
        }

        /// Waits (up to some seconds: a test, not a timing) until the decoder has nothing left to decode, or
        /// no room for more.
        static func settle(_ decoder: BitmapDecoder) {
            for _ in 0..<5_000 {
                let pending = decoder.pending
                if pending.queued == 0 || pending.ready == BitmapDecoder.readyLimit { break }
                usleep(1_000)
            }
        }

        @Test func theThreadDecodesTheBytesTheDrawingWould() throws {
            let renderer = KeyboardRenderer()
            var glyphs: [UInt32] = []
            var made: BitmapDecoder?
            for emoji in ["😀", "👨‍👩‍👧", "🇩🇪", "👋🏽"] {
                renderer.withColourFace(emoji) { face, glyph in
                    if made == nil {
                        let path = String(cString: face.pointee.stream.pointee.pathname.pointer.assumingMemoryBound(to: CChar.self))
                        made = BitmapDecoder(file: path, index: Int(face.pointee.face_index),
                                             strike: Int(face.pointee.size.pointee.metrics.y_ppem))
                    }
                    glyphs.append(glyph)
                }
            }
            let decoder = try #require(made)
            #expect(glyphs.count == 4)
            decoder.want(glyphs)
            Self.settle(decoder)
            #expect(decoder.pending == (4, 0))
            for (emoji, glyph) in zip(["😀", "👨‍👩‍👧", "🇩🇪", "👋🏽"], glyphs) {
                let decoded = try #require(decoder.take(glyph), "\(emoji)")
                defer { decoded.free() }
                // With a face of the test's own: cairo's is the process's, and other tests draw meanwhile.
                let same = renderer.withColourFace(emoji) { face, _ -> Bool in
                    guard let own = ColourFace(file: decoder.file, index: decoder.index, strike: decoder.strike),
                          let here = BitmapDecoder.decode(glyph, face: own.face) else { return false }
                    defer { here.free() }
                    return here.width == decoded.width && here.rows == decoded.rows && here.pitch == decoded.pitch
                        && memcmp(here.pixels, decoded.pixels, here.pitch * here.rows) == 0
                }
                #expect(same == true, "\(emoji)")
                // Taken once: a second take finds nothing, and the drawing decodes it itself.
                #expect(decoder.take(glyph) == nil)
            }
            #expect(decoder.pending == (0, 0))
        }

        /// At most `readyLimit` bitmaps wait; those no longer wanted go when the next page is named, and a
        /// glyph not started is left to the drawing once it is asked for.
        @Test func bitmapsWaitingAreBoundedAndLetGo() throws {
            let renderer = KeyboardRenderer()
            let page = try Self.page("smileys")
            let surface = try Surface(width: 1024, height: 320)
            try renderer.draw(try Self.page("symbols"), on: surface)   // the renderer's images are of this size now
            let keys = page.keys.indices.map { (geometry: page, key: $0) }
            renderer.decodeAhead(keys)
            let decoder = try #require(renderer.decoder)
            Self.settle(decoder)
            // The thread stopped at the limit, the rest still queued.
            #expect(decoder.pending.ready == BitmapDecoder.readyLimit)
            #expect(decoder.pending.queued > 0)
            // Another page named: the first one's bitmaps are let go, and the new page's decoded.
            let other = try Self.page("animals")
            renderer.decodeAhead(other.keys.indices.map { (geometry: other, key: $0) })
            Self.settle(decoder)
            #expect(decoder.pending.ready == BitmapDecoder.readyLimit)
            func firstGlyph(_ geometry: KeyboardGeometry) throws -> UInt32 {
                let label = try #require(geometry.keys.first { if case .text = $0.function { true } else { false } }?.label)
                return try #require(renderer.withColourFace(label) { _, glyph in glyph })
            }
            #expect(decoder.take(try firstGlyph(page)) == nil)
            let taken = try #require(decoder.take(try firstGlyph(other)))
            taken.free()
        }

        /// A page drawn from bitmaps decoded ahead is the page drawn without them, pixel for pixel, and the
        /// drawing took every bitmap the thread decoded.
        @Test func aPageDrawnFromBitmapsDecodedAheadIsTheSame() throws {
            let page = try Self.page("smileys")
            let first = try Self.page("symbols")
            func drawn(ahead: Bool) throws -> (Surface, BitmapDecoder?) {
                let renderer = KeyboardRenderer()
                let surface = try Surface(width: 1024, height: 320)
                try renderer.draw(first, on: surface)
                if ahead {
                    renderer.decodeAhead(page.keys.indices.map { (geometry: page, key: $0) })
                    if let decoder = renderer.decoder { Self.settle(decoder) }
                }
                for key in page.keys.indices { renderer.prepareKey(key, of: page, state: KeyboardState(), on: surface) }
                try renderer.draw(page, on: surface)
                return (surface, renderer.decoder)
            }
            let (plain, none) = try drawn(ahead: false)
            let (decoded, decoder) = try drawn(ahead: true)
            #expect(none == nil)
            let used = try #require(decoder)
            #expect(used.pending == (0, 0), "every bitmap decoded ahead was taken")
            let all = Rect(x: 0, y: 0, width: 1024, height: 320)
            #expect(pixels(plain, in: all) == pixels(decoded, in: all))
        }
    }
}
