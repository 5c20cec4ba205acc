import CCairo
import KeyboardModel
@testable import Render
import TestSupport
import Testing

/// The pixels of a rectangle, as 32-bit values.
func pixels(_ surface: Surface, in rect: Rect) -> [UInt32] {
    surface.withPixels { data, stride in
        var out: [UInt32] = []
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { out.append(data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)) }
        }
        return out
    }
}

/// Puts images on a surface as a window's buffer does in the X server: an opaque image (a key) replaces
/// the pixels, one with alpha (a balloon) is blended over them; each clip is recorded.
final class ServerPlacement {
    private(set) var clips: [Rect] = []

    /// The default keyboard drawn on a surface that places images so, with its renderer.
    static func keyboard(width: Int, height: Int, theme: Theme) throws
        -> (KeyboardGeometry, Surface, KeyboardRenderer, ServerPlacement) {
        let (geometry, surface) = try render(.default, width: width, height: height, theme: theme)
        let renderer = KeyboardRenderer(theme: theme)
        try renderer.draw(geometry, on: surface)
        return (geometry, surface, renderer, ServerPlacement(on: surface))
    }

    init(on surface: Surface) {
        surface.imagePlacer = { [unowned self, unowned surface] image, area, clip in
            clips.append(clip)
            surface.withUnsafeCairoSurface { target in
                let cr = cairo_create(target)
                if cairo_surface_get_content(image) == CAIRO_CONTENT_COLOR { cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE) }
                cairo_set_source_surface(cr, image, Double(area.x), Double(area.y))
                cairo_rectangle(cr, Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height))
                cairo_fill(cr)
                cairo_destroy(cr)
            }
            return true
        }
    }
}

extension Rendering {
    @Suite struct RendererTests {
        @Test func cyrillicAndGreekHaveGlyphs() {
            let renderer = KeyboardRenderer()
            #expect(renderer.missingGlyphs(in: "йцукенгшщзхъЖЯ") == 0)
            #expect(renderer.missingGlyphs(in: "ςερτυθιοπΩΨ") == 0)
            #expect(renderer.missingGlyphs(in: "€£¥•…–—«»") == 0)
            // A private-use character has no glyph: the check can see boxes.
            #expect(renderer.missingGlyphs(in: "\u{F8FF}\u{10FFFD}") > 0)
        }

        @Test func aCyrillicLayoutDrawsItsLabels() throws {
            let library = try LayoutLibrary(texts: ["ru": (text: """
                type default
                layers letters
                layer letters
                row й ц у к е н г ш щ з х
                row ф ы в а п р о л д ж э
                row @shift я ч с м и т ь б ю !BackSpace
                row @globe " "*6 !Return*2
                """, file: "ru.layout")])
            let layout = try #require(library["ru"])
            let geometry = try KeyboardLayoutEngine.layout(layout, width: 600, height: 240)
            let surface = try Surface(width: 600, height: 240)
            try KeyboardRenderer().draw(geometry, on: surface)
            let key = geometry.keys[0]
            #expect(key.label == "й")
            // The key's centre holds dark label pixels on the white key.
            let inner = Rect(x: key.rect.x + 4, y: key.rect.y + 4, width: key.rect.width - 8, height: key.rect.height - 8)
            let dark = pixels(surface, in: inner).filter { ($0 & 0xFF) < 0x80 }.count
            #expect(dark > 20)
        }

        @Test func pressedKeysChangeOnlyThemselves() throws {
            let (geometry, plain) = try render(.default, width: 375, height: 260, theme: .light)
            let qIndex = 0
            let (_, pressed) = try render(.default, width: 375, height: 260, theme: .light,
                                          state: KeyboardState(pressed: [qIndex]))
            let q = geometry.keys[qIndex].rect
            #expect(pixels(plain, in: q) != pixels(pressed, in: q))
            let w = geometry.keys[1].rect
            #expect(pixels(plain, in: w) == pixels(pressed, in: w))
        }

        @Test func redrawingOneKeyMatchesAFullDraw() throws {
            for type in [KeyboardType.default, .desktop, .phonePad] {
                for theme in Theme.all {
                    let (geometry, surface) = try render(type, width: 1024, height: 340, theme: theme)
                    let index = geometry.keys.count / 2
                    let state = KeyboardState(pressed: [index])
                    let renderer = KeyboardRenderer(theme: theme)
                    try renderer.redrawKey(index, of: geometry, state: state, on: surface)
                    let (_, full) = try render(type, width: 1024, height: 340, theme: theme, state: state)
                    #expect(differingPixels(surface, full, tolerance: 0) == 0, "\(type) \(theme.name)")
                    // And back again.
                    try renderer.redrawKey(index, of: geometry, state: KeyboardState(), on: surface)
                    let (_, plain) = try render(type, width: 1024, height: 340, theme: theme)
                    #expect(differingPixels(surface, plain, tolerance: 0) == 0)
                }
            }
        }

        /// On a surface that copies images (a window's buffer), a press or release of a key whose look is kept
        /// is one copy of its image, the same pixels as cairo draws; an area with a popup in it is drawn.
        @Test func aKeyRedrawnOnASurfaceThatCopiesImagesIsOneCopyOfTheSamePixels() throws {
            for theme in Theme.all {
                let (geometry, surface, renderer, placed) = try ServerPlacement.keyboard(width: 1024, height: 340, theme: theme)
                func full(_ state: KeyboardState) throws -> Surface {
                    try render(.default, width: 1024, height: 340, theme: theme, state: state).1
                }
                let s = try #require(geometry.keys.firstIndex { $0.function == .text("s") })
                let area = KeyboardRenderer.keyArea(geometry.keys[s].rect)
                let pressed = KeyboardState(pressed: [s])
                // The first press draws its look; the release and the next press copy.
                for (state, copied) in [(pressed, 0), (KeyboardState(), 1), (pressed, 2)] {
                    try renderer.redrawKey(s, of: geometry, state: state, on: surface)
                    #expect(placed.clips == Array(repeating: area, count: copied), "\(theme.name)")
                    #expect(differingPixels(surface, try full(state), tolerance: 0) == 0, "\(theme.name)")
                }
                // A popup over the key is drawn with it, not copied over.
                let preview = KeyboardState(pressed: [s], popups: [.preview(key: s, label: "s")])
                try renderer.redrawKey(s, of: geometry, state: preview, on: surface)
                #expect(placed.clips.count == 2)
                let (_, withPreview) = try render(.default, width: 1024, height: 340, theme: theme, state: preview)
                #expect(pixels(surface, in: area) == pixels(withPreview, in: area), "\(theme.name)")
                #expect(pixels(surface, in: area) != pixels(try full(pressed), in: area))
            }
        }

        /// On a surface that puts images, a balloon is drawn by cairo the first time and then blended from
        /// its kept image, inside the area asked for only: the same pixels either way.
        @Test func aBalloonAlreadyDrawnIsBlendedFromItsImage() throws {
            for theme in Theme.all {
                let (geometry, surface, renderer, placed) = try ServerPlacement.keyboard(width: 390, height: 260, theme: theme)
                let s = try #require(geometry.keys.firstIndex { $0.function == .text("s") })
                let popup = Popup.preview(key: s, label: "s")
                let state = KeyboardState(pressed: [s], popups: [popup])
                let area = KeyboardRenderer.keyArea(PopupLayout.rect(for: popup, in: geometry))
                let (_, expected) = try render(.default, width: 390, height: 260, theme: theme, state: state)
                func show(over areas: [Rect]) throws {
                    try renderer.redraw([area], of: geometry, state: state, on: surface, popups: false)
                    try renderer.drawPopups(over: areas, of: geometry, state: state, on: surface)
                }
                try show(over: [area])
                #expect(placed.clips.isEmpty, "the first balloon is drawn")
                #expect(differingPixels(surface, expected, tolerance: 0) == 0, "\(theme.name)")
                try show(over: [area])
                #expect(placed.clips == [area])
                #expect(differingPixels(surface, expected, tolerance: 0) == 0, "\(theme.name)")
                // Only the top half asked for: the balloon's lower half stays as the keys under it.
                let top = Rect(x: area.x, y: area.y, width: area.width, height: area.height / 2)
                let bottom = Rect(x: area.x, y: top.maxY, width: area.width, height: area.height - top.height)
                try show(over: [top])
                #expect(placed.clips.last == top)
                #expect(pixels(surface, in: top) == pixels(expected, in: top))
                #expect(pixels(surface, in: bottom) != pixels(expected, in: bottom))
            }
        }

        /// The first frame is drawn in place: the same pixels, and no key image kept; a redraw after it makes
        /// the images again.
        @Test func aFrameDrawnInPlaceIsTheSameAndKeepsNoImage() throws {
            for type in [KeyboardType.default, .desktop] {
                let (geometry, cached) = try render(type, width: 1024, height: 340, theme: .light)
                let renderer = KeyboardRenderer()
                let surface = try Surface(width: 1024, height: 340)
                renderer.drawsInPlace = true
                try renderer.draw(geometry, on: surface)
                #expect(renderer.images.count == 0)
                #expect(differingPixels(surface, cached, tolerance: 0) == 0)
                renderer.drawsInPlace = false
                try renderer.draw(geometry, on: surface)
                #expect(renderer.images.count > 0)
                #expect(differingPixels(surface, cached, tolerance: 0) == 0)
            }
        }

        /// One renderer keeps images of the keys it drew; whatever it drew before, and after a theme change,
        /// its drawing equals a fresh renderer's.
        @Test func aReusedRendererNeverShowsAStaleLook() throws {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 600, height: 260)
            let shift = try #require(geometry.keys.firstIndex { $0.function == .shift })
            let q = 0
            let states = [KeyboardState(), KeyboardState(pressed: [q]), KeyboardState(shift: .on),
                          KeyboardState(pressed: [q, shift], shift: .capsLock),
                          KeyboardState(pressed: [q], popups: [.preview(key: q, label: "q")]), KeyboardState()]
            let reused = KeyboardRenderer()
            for theme in [Theme.light, .dark, .light] {
                reused.theme = theme
                for state in states {
                    let surface = try Surface(width: 600, height: 260)
                    try reused.draw(geometry, state: state, on: surface)
                    let fresh = try Surface(width: 600, height: 260)
                    try KeyboardRenderer(theme: theme).draw(geometry, state: state, on: fresh)
                    #expect(differingPixels(surface, fresh, tolerance: 0) == 0, "\(theme.name) \(state)")
                }
            }
        }

        @Test func shiftStatesLookDifferent() throws {
            let (geometry, off) = try render(.default, width: 375, height: 260, theme: .light)
            let (_, on) = try render(.default, width: 375, height: 260, theme: .light, state: KeyboardState(shift: .on))
            let (_, caps) = try render(.default, width: 375, height: 260, theme: .light,
                                       state: KeyboardState(shift: .capsLock))
            let shift = try #require(geometry.keys.first { $0.function == .shift }).rect
            let a = pixels(off, in: shift), b = pixels(on, in: shift), c = pixels(caps, in: shift)
            #expect(a != b && b != c && a != c)
        }

        @Test func everyIconDrawsSomething() throws {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 1024, height: 340)
            let surface = try Surface(width: 1024, height: 340)
            try KeyboardRenderer().draw(geometry, on: surface)
            for key in geometry.keys where key.icon != nil {
                let values = Set(pixels(surface, in: key.rect))
                #expect(values.count > 4, "\(key.icon!) draws nothing")
            }
        }

        @Test func popupsDrawAboveTheirKeyAndLeaveNoTrace() throws {
            let (geometry, surface) = try render(.default, width: 375, height: 260, theme: .light)
            let (_, plain) = try render(.default, width: 375, height: 260, theme: .light)
            let e = try #require(geometry.keys.firstIndex { $0.function == .text("s") })
            let popups: [Popup] = [.preview(key: e, label: "s"), .alternates(key: e, options: ["s", "ß", "ś"], selected: 1),
                                   .keyboards(key: e, titles: ["English (US)", "Desktop (US)"], selected: 0)]
            let renderer = KeyboardRenderer()
            for popup in popups {
                let area = PopupLayout.rect(for: popup, in: geometry)
                // Above the key; a preview joins it as iOS's balloon does (its area ends with the key).
                let key = geometry.keys[e].rect
                if case .preview = popup {
                    #expect(PopupLayout.isBalloon(area, key: key) && area.y < key.y - key.height)
                } else {
                    #expect(area.maxY <= key.y || area.y == 0)
                }
                try renderer.redraw([area], of: geometry, state: KeyboardState(pressed: [e], popups: [popup]), on: surface)
                #expect(pixels(surface, in: area) != pixels(plain, in: area), "\(popup)")
                // Closing it: redraw the same area without it.
                try renderer.redraw([area, KeyboardRenderer.keyArea(geometry.keys[e].rect)], of: geometry,
                                    state: KeyboardState(), on: surface)
                #expect(differingPixels(surface, plain, tolerance: 0) == 0, "\(popup)")
            }
        }

        @Test func popupsOverAPopupFreeCopyMatchAFullDraw() throws {
            let (geometry, surface) = try render(.default, width: 1024, height: 340, theme: .dark)
            let s = try #require(geometry.keys.firstIndex { $0.function == .text("s") })
            let state = KeyboardState(pressed: [s], popups: [.alternates(key: s, options: ["s", "ß", "ś", "š"], selected: 2)])
            let renderer = KeyboardRenderer(theme: .dark)
            // A popup's drawing, like a key's, covers its rectangle and the shadow line below it.
            let area = KeyboardRenderer.keyArea(PopupLayout.rect(for: state.popups[0], in: geometry))
            try renderer.redraw([KeyboardRenderer.keyArea(geometry.keys[s].rect)], of: geometry, state: state,
                                on: surface, popups: false)
            try renderer.drawPopups(over: [area], of: geometry, state: state, on: surface)
            let (_, full) = try render(.default, width: 1024, height: 340, theme: .dark, state: state)
            #expect(differingPixels(surface, full, tolerance: 0) == 0)
        }

        @Test func badSurfacesAndPathsAreErrors() throws {
            #expect(throws: RenderError.self) { try Surface(width: -1, height: 10) }
            let surface = try Surface(width: 10, height: 10)
            #expect(throws: RenderError.self) { try surface.writePNG(to: "/nonexistent/folder/x.png") }
        }
    }
}

extension Rendering {
    @Suite struct TrailTests {
        /// A stroke's trail is drawn in the accent colour where the finger went last, fades toward its
        /// older end, and leaves the keys it does not cover as they were.
        @Test func theTrailIsDrawnWhereTheFingerWentAndFades() throws {
            let (geometry, plain) = try render(.default, width: 375, height: 260, theme: .light)
            var state = KeyboardState()
            let q = geometry.keys.first { $0.name == "q" }!.rect, p = geometry.keys.first { $0.name == "p" }!.rect
            let y = Double(q.y) + Double(q.height) / 2
            state.trail.points = [Trail.Point(x: Double(q.x) + 10, y: y, time: 0),
                                  Trail.Point(x: Double(p.x), y: y, time: 0.3)]
            state.trail.advance(to: 0.3)
            let (_, drawn) = try render(.default, width: 375, height: 260, theme: .light, state: state)
            // Near the newest end: the accent (light theme: #007AFF, stored as BGRA in a 32-bit value).
            let newest = pixels(drawn, in: Rect(x: p.x - 4, y: Int(y), width: 1, height: 1))[0]
            #expect(newest & 0xFFFFFF == 0x007AFF || (newest & 0xFF) > 0xC0 && (newest >> 16 & 0xFF) < 0x60,
                    "\(String(newest, radix: 16))")
            // Rows below are untouched.
            let below = geometry.keys.first { $0.name == "z" }!.rect
            #expect(pixels(plain, in: below) == pixels(drawn, in: below))
            // Faded out: nothing left.
            state.trail.advance(to: 2)
            #expect(state.trail.isEmpty)
            let (_, faded) = try render(.default, width: 375, height: 260, theme: .light, state: state)
            #expect(pixels(plain, in: q) == pixels(faded, in: q))
        }
    }
}
