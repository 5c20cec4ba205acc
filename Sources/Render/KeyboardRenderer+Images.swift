internal import CCairo
public import KeyboardModel

/// The renderer's images: what a key's look is, and the cache of looks already drawn (the cache itself is
/// stored in KeyboardRenderer.swift).
extension KeyboardRenderer {
    /// Everything a key's drawing depends on besides the theme: keys that look alike share one image.
    struct KeyLook: Hashable {
        var label: String?
        var secondary: String?
        var icon: KeyIcon?
        var style: KeyStyle
        var pressed: Bool
        var latched: Bool
        /// A modifier locked on (drawn latched, with a light under its label).
        var locked: Bool
        /// Dwell's progress ring on the key, in twentieths (0: none).
        var dwell: Int
        /// Highlighted by switch scanning.
        var scanned: Bool
        /// The secondary label goes under the label (a pad's digit), not above it.
        var secondaryBelow: Bool
        /// No key face: a button of the suggestion bar.
        var flat = false
        /// A row of the settings panel: drawn as a row, not a key.
        var setting: SettingRow?
        var width: Int
        var height: Int
        var compact: Bool

        /// Hashes what tells the looks of a keyboard apart (equality still compares every part): each redraw
        /// looks its keys up, and hashing all fifteen parts cost more than drawing the key from its image.
        func hash(into hasher: inout Hasher) {
            hasher.combine(label)
            hasher.combine(icon)
            hasher.combine(pressed)
            hasher.combine(width)
            hasher.combine(height)
        }
    }

    /// What a cached image shows: a key in one state, or the preview bubble of a label.
    enum Look: Hashable {
        case key(KeyLook)
        case preview(label: String, width: Int, height: Int, key: Rect)
    }

    /// The most looks kept; past it, those least recently drawn go (`RecentImages`). Typing on two layers
    /// stays within it, as does an emoji page with the two drawn ahead; more kept only grew the keyboard
    /// and the X server (docs/performance.md).
    static let imageLimit = 200

    func forgetImages() {
        for image in images.removeAll() { cairo_surface_destroy(image) }
    }

    /// Draws a look at (x, y) from its cached image, drawing the image first when it is new. The image is
    /// `width` x `height` and `paint` draws it with its top-left corner at the origin.
    func drawCached(_ look: Look, x: Int, y: Int, width: Int, height: Int, cr: OpaquePointer,
                            paint: (OpaquePointer) -> Void) {
        let cached = drawsInPlace ? images.use(look) : cachedImage(look, width: width, height: height, cr: cr, paint: paint)
        guard let image = cached else {
            // No memory for an image: draw in place.
            cairo_save(cr)
            cairo_translate(cr, Double(x), Double(y))
            paint(cr)
            cairo_restore(cr)
            return
        }
        cairo_set_source_surface(cr, image, Double(x), Double(y))
        cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
        cairo_fill(cr)
    }

    /// Draws a key's image ahead, into the cache only: the key, as the state shows it, is then a copy when
    /// it is drawn (an emoji page's glyphs take some 30 ms to draw the first time). Returns whether it was
    /// drawn now (false: it was cached, or cannot be).
    @discardableResult
    public func prepareKey(_ index: Int, of geometry: KeyboardGeometry, state: KeyboardState,
                           on surface: Surface) -> Bool {
        let key = geometry.keys[index]
        guard imagesSize == (geometry.width, geometry.height), !key.function.isSuggestion else { return false }
        let look = keyLook(geometry, index: index, state: state)
        guard !images.contains(.key(look)) else { return false }
        let area = Self.keyArea(key.rect)
        var drawn = false
        defer { forgetFaces() }
        try? withContext(surface) { cr in
            drawn = cachedImage(.key(look), width: area.width, height: area.height, cr: cr) { paintKey(look, cr: $0) } != nil
        }
        return drawn
    }

    func keyLook(_ geometry: KeyboardGeometry, index: Int, state: KeyboardState) -> KeyLook {
        let key = geometry.keys[index]
        var latched = isLatched(key.function, state: state)
        // The emoji keyboard's tab of the group on screen.
        if geometry.type == .emoji, case .layer(let target) = key.function, !EmojiBoard.turnsPage(key) {
            latched = EmojiBoard.group(of: geometry.layer) == target
        }
        let icon: KeyIcon? = (key.icon == .shift && state.shift == .capsLock) ? .capsLock : key.icon
        var look = KeyLook(label: key.label, secondary: key.secondary, icon: icon, style: key.style,
                           pressed: state.pressed.contains(index), latched: latched,
                           locked: isLocked(key.function, state: state),
                           dwell: state.dwell.map { $0.key == index ? max(1, Int(($0.progress * 20).rounded())) : 0 } ?? 0,
                           scanned: state.scanned.contains(index), secondaryBelow: key.secondaryBelow, width: key.rect.width,
                           height: key.rect.height, compact: geometry.widthClass == .compact)
        look.flat = key.flat
        if case .setting(let row) = key.function { look.setting = row }
        // A trackpad: blank keys under the finger, as iOS fades their labels.
        if state.trackpad {
            look.label = nil
            look.secondary = nil
            look.icon = nil
        }
        return look
    }

    /// A look's cached image, drawn (like the surface of `cr`) when it is new; nil without memory for it.
    /// A key's image is opaque, on the background, so that it can replace its area in one copy; a preview
    /// bubble's keeps its transparency, as it is drawn over keys.
    func cachedImage(_ look: Look, width: Int, height: Int, cr: OpaquePointer,
                             paint: (OpaquePointer) -> Void) -> OpaquePointer? {
        if let image = images.use(look) { return image }
        let opaque = if case .key = look { true } else { false }
        guard let made = image(width: width, height: height, like: cr, opaque: opaque, paint: paint) else { return nil }
        for old in images.add(made, for: look) { cairo_surface_destroy(old) }
        return made
    }

    /// A new image made like the surface of `cr` (an X pixmap on a window) and painted, on the theme's
    /// background if `opaque`; nil without memory.
    func image(width: Int, height: Int, like cr: OpaquePointer, opaque: Bool = false,
               paint: (OpaquePointer) -> Void) -> OpaquePointer? {
        let content = opaque ? CAIRO_CONTENT_COLOR : CAIRO_CONTENT_COLOR_ALPHA
        let made = cairo_surface_create_similar(cairo_get_target(cr), content, Int32(width), Int32(height))
        guard let made, cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let imageContext = cairo_create(made) else {
            cairo_surface_destroy(made)
            return nil
        }
        if opaque {
            set(imageContext, theme.background)
            cairo_paint(imageContext)
        }
        paint(imageContext)
        cairo_destroy(imageContext)
        cairo_surface_flush(made)
        return made
    }

    func isLocked(_ function: KeyFunction, state: KeyboardState) -> Bool {
        switch function {
        case .keysym(let name): state.lockedModifiers.contains(name)
        case .capsLock: state.shift == .capsLock
        default: false
        }
    }

    func isLatched(_ function: KeyFunction, state: KeyboardState) -> Bool {
        switch function {
        case .shift: state.shift != .off
        case .capsLock: state.shift == .capsLock
        case .keysym(let name): state.modifiers.contains(name)
        case .dwellPause: state.dwellPaused
        default: false
        }
    }
}
