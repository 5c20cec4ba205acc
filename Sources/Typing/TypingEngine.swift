public import KeyboardModel

/// The keyboard's state machine: turns touches into key actions, and keeps what the keyboard shows.
///
/// It owns no clock: every event carries its time, and `tick(at:)` fires the timers (long press, delete
/// repeat) that `nextDeadline` asks for, so tests advance time by hand.
public struct TypingEngine: Sendable {
    public internal(set) var library: LayoutLibrary
    /// The names of the enabled keyboards, in Globe order: the configured ones, and the one a field asked
    /// for if it is not among them.
    public internal(set) var enabled: [String]
    /// The keyboards the command line or the configuration enabled.
    public internal(set) var configured: [String]
    public internal(set) var current: Int
    public internal(set) var options: LayoutOptions
    public private(set) var size: (width: Int, height: Int)
    public private(set) var geometry: KeyboardGeometry
    public internal(set) var state = KeyboardState()
    /// The layer chosen with layer keys; shift shows `shifted` over `letters`.
    public internal(set) var baseLayer: String
    public var timing = Timing() {
        didSet {
            // Dwell brings its pause key.
            guard (timing.dwell > 0) != options.showsDwellPause else { return }
            options.showsDwellPause = timing.dwell > 0
            geometryCache = [:]
            try? relayout()
        }
    }
    /// The record of what was typed, and the behaviours that build on it.
    public internal(set) var composer: Composer
    /// Traits chosen on the command line, over each keyboard's own.
    public internal(set) var traitOverrides: TextTraits.Overrides
    /// Traits the focused field asks for (a password's), over the command line's; kept through Globe
    /// switches until another field is shown.
    public internal(set) var fieldTraits = TextTraits.Overrides()
    /// The language keyboard last shown (the default keyboard until one is): the language fields are
    /// typed in.
    public internal(set) var languageKeyboard = "default"
    /// Whether shift is on because autocapitalization put it on (not a tap).
    var autoShift = false
    /// The languages there are dictionaries for (primary tags: en, de): their keyboards show suggestions.
    public var dictionaryLanguages: Set<String> = ["en"] {
        didSet { if dictionaryLanguages != oldValue { try? relayout() } }
    }
    /// The suggestion bar above the prose keyboards (`--suggestions`); never in secure entry.
    public var suggestionsEnabled = false {
        didSet { if suggestionsEnabled != oldValue { try? relayout() } }
    }
    /// Corrections applied on space and punctuation (`--autocorrection`), where the field allows them.
    public var autocorrectionEnabled = true
    /// Words typed by sliding across the letters (`--slide-to-type`), where the bar shows.
    public var slideToTypeEnabled = true
    /// A double tap on shift locks capitals (`--caps-lock`, iOS's "Enable Caps Lock"); off, it is two taps.
    public var capsLockEnabled = true
    /// Ctrl, Alt and Super latch for the next key (`--sticky-keys`); off, they act only while a finger
    /// holds them, as on a physical keyboard.
    public var stickyModifiers = true
    /// Two spaces type a period and a space (`--double-space-period`).
    public var doubleSpacePeriod: Bool {
        get { composer.doubleSpacePeriod }
        set { composer.doubleSpacePeriod = newValue }
    }
    /// The Globe key's list ends with "Keyboard Settings", which opens the settings panel (unless the
    /// administrator locked it away).
    public var settingsInList = false
    /// That entry's title, in the panel's words.
    public var settingsTitle = Popup.settingsTitle
    /// Shortcuts typed that become their phrases (`keypane replace`), where words may be corrected.
    public var replacements = TextReplacements.standard
    /// The space bar turned trackpad, while it is one (TypingEngine+Trackpad.swift).
    var trackpad: Trackpad?
    /// The clipboard holds text (the display said so, or the bar cut or copied some): the edit bar
    /// offers Paste.
    public internal(set) var clipboardHasText = false
    /// The edit bar is for a selection (cut, copy, paste), not for the caret (undo, redo, paste).
    var editBarSelection = false
    /// The focused field is known to hold lines: the trackpad moves up and down too. Elsewhere (a
    /// one-line entry, where Up and Down move the focus; a shell, where they recall history) it does not.
    public var fieldIsMultiLine = false
    /// The focused field is a terminal's: a bar of edit actions of its own (Copy, Paste with Ctrl+Shift).
    public var fieldIsTerminal = false
    /// The word being typed (TypingEngine+Words.swift).
    var word = WordInProgress()

    var touches: [Int: Touch] = [:]
    /// Input read while a lifted stroke waits for its words, handled once they are typed
    /// (TypingEngine+Strokes.swift).
    var heldInput: [InputEvent] = []
    /// The key the pointer rests on for dwell, since when, and whether it pressed it already.
    var hovering: Hover?
    /// Switch scanning, when on (TypingEngine+Scanning.swift), and where it is.
    public var scanning: ScanSettings?
    var scanPosition: ScanPosition?
    /// The key last typed and when it was let go, for bounce keys.
    var lastTyped: (function: KeyFunction, time: Double)?
    var lastShiftPress = -Double.infinity
    /// When each modifier key was last tapped on, for the double tap that locks it.
    var lastModifierTap: [String: Double] = [:]
    /// The touch holding shift down, whether a key was typed meanwhile, and whether it took over a shift
    /// that autocapitalization had put on.
    var shiftHold: (touch: Int, typed: Bool, fromAuto: Bool)?
    /// Without sticky keys: the modifiers held down, by the touch holding each.
    var heldModifiers: [Int: String] = [:]
    /// The emoji keyboard's contents, once it is added (`addEmoji`).
    public internal(set) var emoji: EmojiBoard?
    /// Emoji were typed since the recent tab was made.
    var emojiRecentStale = false
    /// The layers laid out so far at the current size, so that shift and layer keys switch without laying
    /// out again. A size change starts it afresh; past `geometryCacheLimit` (more than a person's usual
    /// keyboards and layers: a geometry is some 10 KiB) it starts again.
    var geometryCache: [String: KeyboardGeometry] = [:]
    private var geometryCacheSize = (width: 0, height: 0)
    static let geometryCacheLimit = 16

    struct Touch: Sendable {
        var key: Int
        var began: Double
        /// Where the finger is now.
        var point: (x: Double, y: Double) = (0, 0)
        /// Where it went down, and on which key.
        var start: (x: Double, y: Double) = (0, 0)
        var startKey: Int
        /// Whether the press counts yet (with slow keys, once held long enough).
        var accepted = true
        var longPressDone = false
        var nextRepeat: Double?
        var repeats = 0
        /// What it drew while it may be a stroke across the letters (slide to type).
        var stroke: StrokeTracking?
        /// On delete: the character its press deleted, when known, and the slide left, once it slides.
        var deleted: Character?
        var deleteSlide: DeleteSlide?
    }

    /// A keyboard showing `enabled[current]` at the given size.
    public init(library: LayoutLibrary, enabled: [String], current: Int = 0, returnKey: ReturnKeyType = .default,
                traits overrides: TextTraits.Overrides = .init(), width: Int, height: Int) throws(GeometryError) {
        precondition(!enabled.isEmpty && enabled.allSatisfy { library[$0] != nil }, "enabled layouts exist")
        self.library = library
        self.enabled = enabled
        self.configured = enabled
        self.current = current
        self.options = LayoutOptions(returnKey: returnKey, showsGlobe: enabled.count > 1)
        self.size = (width, height)
        let layout = library[enabled[current]]!
        self.baseLayer = layout.defaultLayer
        if let first = enabled.first(where: { library[$0]?.type == .default && library[$0]?.language != nil }) {
            languageKeyboard = layout.type == .default && layout.language != nil ? enabled[current] : first
        }
        self.traitOverrides = overrides
        self.composer = Composer(traits: overrides.applied(to: .defaults(for: layout.type)))
        composer.quotes = Quotes(language: layout.language)
        options = library.options(options, for: layout, among: enabled, languageKeyboard: languageKeyboard)
        self.geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: height, options: options)
        keysMoved()
        var update = Update()
        autoCapitalize(&update)
    }

    /// The traits of the keyboard on screen.
    public var traits: TextTraits { composer.traits }

    public var layout: Layout { library[enabled[current]]! }

    /// Takes in the layouts of a library read later (the user's own once the keyboard is on screen, one
    /// asked for) that the engine's lacks.
    public mutating func extendLibrary(_ later: LayoutLibrary) {
        library.merge(later)
    }

    /// The layer on screen.
    public var layer: String { geometry.layer }

    // MARK: - Changes from outside

    /// Lays the keyboard out at a new size; layer, shift and keyboard stay.
    public mutating func resize(width: Int, height: Int) throws(GeometryError) {
        let old = size
        size = (width, height)
        do { try relayout() } catch {
            size = old
            throw error
        }
    }

    /// Forgets what was typed, as when the focus or the caret moved: input starts afresh.
    public mutating func resetContext() -> Update {
        var update = Update()
        composer.reset()
        restartWord(&update)
        autoCapitalize(&update)
        return update
    }

    /// The field's own text before the caret (read through the accessibility bus): it decides capitals and
    /// punctuation where it differs from what the keyboard recorded.
    public mutating func read(context before: String) -> Update {
        var update = Update()
        let old = composer.record
        composer.read(before)
        if composer.record != old { restartWord(&update) }
        autoCapitalize(&update)
        return update
    }

    /// Whether a finger (or the pointer) is down on the keyboard.
    public var isTouched: Bool { !touches.isEmpty }

    /// Forgets every touch, as when the keyboard is hidden.
    public mutating func cancelTouches() -> Update {
        var update = Update()
        if let hover = hovering { update.changedKeys.insert(hover.key) }
        hovering = nil
        state.dwell = nil
        update.changedKeys = state.pressed
        update.popupsChanged = !state.popups.isEmpty
        touches = [:]
        shiftHold = nil
        if !heldModifiers.isEmpty {
            state.modifiers.subtract(heldModifiers.values)
            heldModifiers = [:]
        }
        state.pressed = []
        state.popups = []
        update.trailChanged = !state.trail.isEmpty
        state.trail = Trail()
        if trackpad != nil {
            trackpad = nil
            state.trackpad = false
            update.redrawAll = true
        }
        return update
    }

    // MARK: - Input

    public mutating func handle(_ event: InputEvent) -> Update {
        var update = Update()
        if holdsInput {
            heldInput.append(event)
            return update
        }
        // An event handled late (the keyboard was busy drawing) still happened at its own time: what was due
        // before it, a long press above all, comes first, as it would have had the timer run on time.
        var fired = 0
        while let due = nextDeadline, due <= event.time, fired < 64 {
            fireTimers(at: due, &update)
            fired += 1
        }
        if trackpad != nil {
            trackpadInput(event, &update)
            return update
        }
        switch event.phase {
        case .began: began(event, &update)
        case .moved: moved(event, &update)
        case .ended: ended(event, &update)
        case .cancelled:
            if let touch = touches.removeValue(forKey: event.touch) {
                release(touch, &update)
                if touch.stroke?.isStroke == true { update.trailChanged = true }
            }
        }
        return update
    }

    /// When `tick` next has work: a long press or a repeat. Nil when nothing waits: no timer runs.
    public var nextDeadline: Double? {
        // Asked before every wait of the loop. A mutating get, though it changes nothing, so that the
        // keyboard (a class) reads it in its engine in place: a plain get copies the whole engine first.
        mutating get {
            var earliest: Double?
            func consider(_ deadline: Double?) {
                if let deadline, deadline < earliest ?? .infinity { earliest = deadline }
            }
            for touch in touches.values {
                consider(touchDeadline(touch))
            }
            consider(dwellDeadline)
            consider(scanDeadline)
            consider(trailDeadline)
            consider(trackpadSelectDeadline)
            consider(heldInputDeadline)
            return earliest
        }
    }

    private func touchDeadline(_ touch: Touch) -> Double? {
        if !touch.accepted { return touch.began + timing.slowKeys }
        if let next = touch.nextRepeat { return next }
        if let due = trackpadDeadline(touch) { return due }
        return touch.longPressDone || !hasLongPress(touch.key) ? nil : touch.began + timing.longPress
    }

    /// Fires the timers due at `now`.
    public mutating func tick(at now: Double) -> Update {
        var update = Update()
        fireTimers(at: now, &update)
        return update
    }

    mutating func fireTimers(at now: Double, _ update: inout Update) {
        if let due = heldInputDeadline, due <= now { stopHoldingInput(&update) }
        dwellTick(at: now, &update)
        scanTick(at: now, &update)
        if fadeTrail(at: now) { update.trailChanged = true }
        trackpadHeld(at: now)
        for id in touches.keys.sorted() {
            guard var touch = touches[id] else { continue }
            if !touch.accepted {
                if touch.began + timing.slowKeys <= now { accept(id, at: touch.began + timing.slowKeys, &update) }
                continue
            }
            if let due = trackpadDeadline(touch), due <= now {
                startTrackpad(id, at: touch.point, time: due, &update)
                continue
            }
            if let next = touch.nextRepeat, next <= now {
                // Held on, delete goes by whole words, as on iOS.
                let byWords = touch.repeats >= timing.repeatsBeforeWords
                if byWords { deleteWordBack(&update) } else { delete(&update) }
                update.click = .delete
                touch.repeats += 1
                touch.nextRepeat = next + (byWords ? timing.wordRepeatInterval
                                           : touch.repeats > timing.repeatsBeforeFast ? timing.fastRepeatInterval : timing.repeatInterval)
            } else if !touch.longPressDone, hasLongPress(touch.key), touch.began + timing.longPress <= now {
                touch.longPressDone = true
                openLongPress(key: touch.key, &update)
            }
            touches[id] = touch
        }
    }

    // MARK: - Steps (touches in TypingEngine+Touches.swift, shift and text in TypingEngine+Shift.swift, popups
    // in TypingEngine+Popups.swift, dwell and scanning in files of their own)

    mutating func relayout() throws(GeometryError) {
        var layer = baseLayer
        if layer == "letters" && state.shift != .off && layout.layers.contains("shifted") { layer = "shifted" }
        options = shownOptions(for: layout)
        let key = "\(enabled[current])/\(layer)/\(options.showsSuggestions)/\(fieldIsTerminal)/\(options.spaceLabel ?? "")/\(languageKeyboard)"
        if geometryCacheSize != (size.width, size.height) {
            geometryCache = [:]
            geometryCacheSize = (size.width, size.height)
        }
        if let cached = geometryCache[key] {
            geometry = cached
        } else {
            if geometryCache.count >= Self.geometryCacheLimit { geometryCache = [:] }
            geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: size.width, height: size.height,
                                                       options: options)
            geometryCache[key] = geometry
        }
        // Presses and popups belong to the old keys.
        touches = touches.filter { _, touch in Self.isModifierTouch(touch, in: geometry) }
        state.pressed = KeySet(touches.values.map(\.key))
        state.popups = []
        if !showsBar { state.bar = [] }
        keysMoved()
        keysMovedUnderHover()
    }

    /// Forgets the geometry made of a layout (which changed).
    mutating func dropCachedGeometry(of layout: String) {
        geometryCache = geometryCache.filter { !$0.key.hasPrefix(layout + "/") }
    }

    private static func isModifierTouch(_ touch: Touch, in geometry: KeyboardGeometry) -> Bool {
        touch.key < geometry.keys.count && [KeyFunction.shift, .capsLock].contains(geometry.keys[touch.key].function)
    }

    mutating func press(_ key: Int, _ update: inout Update) {
        state.pressed.insert(key)
        update.changedKeys.insert(key)
    }

    mutating func unpress(_ key: Int, _ update: inout Update) {
        state.pressed.remove(key)
        update.changedKeys.insert(key)
        if let index = state.popups.firstIndex(where: { $0.key == key }) {
            state.popups.remove(at: index)
            update.popupsChanged = true
        }
    }

    mutating func release(_ touch: Touch, _ update: inout Update) {
        guard touch.key < geometry.keys.count else { return }
        unpress(touch.key, &update)
    }

    func keys(where match: (KeyFunction) -> Bool) -> KeySet {
        KeySet(geometry.keys.indices.filter { match(geometry.keys[$0].function) })
    }
}
