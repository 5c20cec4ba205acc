public import KeyboardModel

/// The keyboard's state machine: turns touches into key actions, and keeps what the keyboard shows.
///
/// It owns no clock: every event carries its time, and `tick(at:)` fires the timers (long press, delete
/// repeat) that `nextDeadline` asks for, so tests advance time by hand.
public struct TypingEngine: Sendable {
    /// Timings, in seconds.
    public struct Timing: Sendable {
        public var longPress = 0.45
        public var doubleTap = 0.35
        public var repeatDelay = 0.5
        public var repeatInterval = 0.1
        public var fastRepeatInterval = 0.05
        /// Repeats at the normal interval before speeding up.
        public var repeatsBeforeFast = 8
        public init() {}
    }

    public let library: LayoutLibrary
    /// The names of the enabled keyboards, in Globe order.
    public private(set) var enabled: [String]
    public private(set) var current: Int
    public private(set) var options: LayoutOptions
    public private(set) var size: (width: Int, height: Int)
    public private(set) var geometry: KeyboardGeometry
    public private(set) var state = KeyboardState()
    /// The layer chosen with layer keys; shift shows `shifted` over `letters`.
    public private(set) var baseLayer: String
    public var timing = Timing()
    /// The record of what was typed, and the behaviours that build on it.
    public private(set) var composer: Composer
    /// Traits chosen on the command line, over each keyboard's own.
    public let traitOverrides: TextTraits.Overrides
    /// Traits the focused field asks for (a password's), over the command line's; kept through Globe
    /// switches until another field is shown.
    public private(set) var fieldTraits = TextTraits.Overrides()
    /// Whether shift is on because autocapitalization put it on (not a tap).
    private var autoShift = false

    private var touches: [Int: Touch] = [:]
    private var lastShiftPress = -Double.infinity
    /// The touch holding shift down, whether a key was typed meanwhile, and whether it took over a shift
    /// that autocapitalization had put on.
    private var shiftHold: (touch: Int, typed: Bool, fromAuto: Bool)?
    private var geometryCache: [String: KeyboardGeometry] = [:]

    private struct Touch: Sendable {
        var key: Int
        var began: Double
        var longPressDone = false
        var nextRepeat: Double?
        var repeats = 0
    }

    /// A keyboard showing `enabled[current]` at the given size.
    public init(library: LayoutLibrary, enabled: [String], current: Int = 0, returnKey: ReturnKeyType = .default,
                traits overrides: TextTraits.Overrides = .init(), width: Int, height: Int) throws(GeometryError) {
        precondition(!enabled.isEmpty && enabled.allSatisfy { library[$0] != nil }, "enabled layouts exist")
        self.library = library
        self.enabled = enabled
        self.current = current
        self.options = LayoutOptions(returnKey: returnKey, showsGlobe: enabled.count > 1)
        self.size = (width, height)
        let layout = library[enabled[current]]!
        self.baseLayer = layout.defaultLayer
        self.traitOverrides = overrides
        self.composer = Composer(traits: overrides.applied(to: .defaults(for: layout.type)))
        self.geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: height, options: options)
        var update = Update()
        autoCapitalize(&update)
    }

    /// The traits of the keyboard on screen.
    public var traits: TextTraits { composer.traits }

    public var layout: Layout { library[enabled[current]]! }

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

    /// Shows another enabled keyboard, on its first layer.
    public mutating func select(keyboard index: Int) {
        guard enabled.indices.contains(index) else { return }
        current = index
        baseLayer = layout.defaultLayer
        state.shift = .off
        autoShift = false
        state.modifiers = []
        composer.traits = fieldTraits.applied(to: traitOverrides.applied(to: .defaults(for: layout.type)))
        try? relayout()
        var update = Update()
        autoCapitalize(&update)
    }

    /// Forgets what was typed, as when the focus or the caret moved: input starts afresh.
    public mutating func resetContext() -> Update {
        var update = Update()
        composer.reset()
        autoCapitalize(&update)
        return update
    }

    /// Shows the keyboard of a given layout name, enabling it if need be, with a Return key and the traits
    /// of the field it is for.
    public mutating func show(layout name: String, returnKey: ReturnKeyType, traits: TextTraits.Overrides = .init()) {
        guard library[name] != nil else { return }
        fieldTraits = traits
        composer.reset()
        if !enabled.contains(name) { enabled.append(name) }
        options = LayoutOptions(returnKey: returnKey, showsGlobe: enabled.count > 1)
        geometryCache = [:]
        select(keyboard: enabled.firstIndex(of: name)!)
    }

    /// Whether a finger (or the pointer) is down on the keyboard.
    public var isTouched: Bool { !touches.isEmpty }

    /// Forgets every touch, as when the keyboard is hidden.
    public mutating func cancelTouches() -> Update {
        var update = Update()
        update.changedKeys = state.pressed
        update.popupsChanged = !state.popups.isEmpty
        touches = [:]
        shiftHold = nil
        state.pressed = []
        state.popups = []
        return update
    }

    // MARK: - Input

    public mutating func handle(_ event: InputEvent) -> Update {
        var update = Update()
        switch event.phase {
        case .began: began(event, &update)
        case .moved: moved(event, &update)
        case .ended: ended(event, &update)
        case .cancelled:
            if let touch = touches.removeValue(forKey: event.touch) { release(touch, &update) }
        }
        return update
    }

    /// When `tick` next has work: a long press or a repeat. Nil when nothing waits: no timer runs.
    public var nextDeadline: Double? {
        touches.values.compactMap { touch -> Double? in
            if let next = touch.nextRepeat { return next }
            return touch.longPressDone || !hasLongPress(touch.key) ? nil : touch.began + timing.longPress
        }.min()
    }

    /// Fires the timers due at `now`.
    public mutating func tick(at now: Double) -> Update {
        var update = Update()
        for id in touches.keys.sorted() {
            guard var touch = touches[id] else { continue }
            if let next = touch.nextRepeat, next <= now {
                delete(&update)
                update.click = .delete
                touch.repeats += 1
                touch.nextRepeat = next + (touch.repeats > timing.repeatsBeforeFast
                                           ? timing.fastRepeatInterval : timing.repeatInterval)
            } else if !touch.longPressDone, hasLongPress(touch.key), touch.began + timing.longPress <= now {
                touch.longPressDone = true
                openLongPress(key: touch.key, &update)
            }
            touches[id] = touch
        }
        return update
    }

    private func hasLongPress(_ key: Int) -> Bool {
        let placed = geometry.keys[key]
        return !placed.alternates.isEmpty || (placed.function == .globe && enabled.count > 1)
            || placed.function == .dismiss
    }

    private mutating func began(_ event: InputEvent, _ update: inout Update) {
        if let old = touches.removeValue(forKey: event.touch) { release(old, &update) }
        guard let key = geometry.keyIndex(atX: event.x, y: event.y) else { return }
        var touch = Touch(key: key, began: event.time)
        press(key, &update)
        update.click = Click(for: geometry.keys[key].function)
        switch geometry.keys[key].function {
        case .keysym("BackSpace"):
            delete(&update)
            touch.nextRepeat = event.time + timing.repeatDelay
        case .shift:
            // Shift that autocapitalization put on stays on under the finger; let go untouched, it goes off.
            let fromAuto = autoShift && state.shift == .on
            if fromAuto {
                autoShift = false
            } else {
                shiftPressed(at: event.time, &update)
            }
            shiftHold = (event.touch, false, fromAuto)
        case .capsLock:
            state.shift = state.shift == .capsLock ? .off : .capsLock
            relayoutForShift(&update)
        default: break
        }
        touches[event.touch] = touch
        showPreview(for: touch.key, &update)
    }

    private mutating func moved(_ event: InputEvent, _ update: inout Update) {
        guard var touch = touches[event.touch] else { return }
        if let index = state.popups.firstIndex(where: { $0.key == touch.key && !isPreview($0) }) {
            choose(in: index, x: event.x, y: event.y, &update)
            return
        }
        guard let key = geometry.keyIndex(atX: event.x, y: event.y), key != touch.key else { return }
        // Sliding moves the press to the key under the finger, as on iOS; a repeat stops.
        unpress(touch.key, &update)
        touch.key = key
        touch.began = event.time
        touch.longPressDone = false
        touch.nextRepeat = nil
        press(key, &update)
        touches[event.touch] = touch
        showPreview(for: key, &update)
    }

    private mutating func ended(_ event: InputEvent, _ update: inout Update) {
        guard let touch = touches.removeValue(forKey: event.touch) else { return }
        let popup = state.popups.first { $0.key == touch.key && !isPreview($0) }
        release(touch, &update)
        switch popup {
        case .alternates(_, let options, let selected):
            typeText(options[selected], at: event.time, &update)
            return
        case .keyboards(_, _, let selected):
            update.actions.append(.selectKeyboard(selected))
            return
        default: break
        }
        let placed = geometry.keys[touch.key]
        switch placed.function {
        case .text(let text):
            typeText(text, at: event.time, &update)
        case .keysym("BackSpace"):
            break
        case .keysym(let name) where Self.modifierKeysyms.contains(name):
            if state.modifiers.remove(name) == nil { state.modifiers.insert(name) }
            update.changedKeys.formUnion(keys { $0 == .keysym(name) })
        case .keysym(let name):
            update.actions.append(.keysym(name, modifiers: modifierList()))
            composer.keysym(name, modifiers: modifierList())
            afterKey(&update)
        case .shift:
            if let hold = shiftHold, hold.touch == event.touch {
                shiftHold = nil
                if (hold.typed || hold.fromAuto) && state.shift == .on {
                    state.shift = .off
                    relayoutForShift(&update)
                }
                if hold.fromAuto { lastShiftPress = event.time }
            }
        case .capsLock:
            break
        case .layer(let target):
            if target == "shifted" {
                baseLayer = "letters"
                state.shift = .on
            } else {
                baseLayer = target
            }
            try? relayout()
            update.redrawAll = true
        case .globe:
            if !touch.longPressDone { update.actions.append(.nextKeyboard) }
        case .dismiss:
            if !touch.longPressDone { update.actions.append(.dismiss) }
        }
    }

    // MARK: - Steps

    static let modifierKeysyms: Set<String> = ["Control_L", "Control_R", "Alt_L", "Alt_R", "Super_L", "Super_R",
                                               "Meta_L", "Meta_R", "ISO_Level3_Shift"]

    /// The latched modifiers, plus Shift for keysym keys while shift is on.
    private func modifierList() -> [String] {
        var list = state.modifiers.sorted()
        if state.shift != .off { list.append("Shift_L") }
        return list
    }

    private mutating func typeText(_ text: String, at time: Double, _ update: inout Update) {
        if state.modifiers.isEmpty {
            update.actions += composer.type(text, at: time)
        } else {
            // Ctrl+C and friends: the key with the modifiers, not the character alone.
            update.actions.append(.keysym(text, modifiers: modifierList()))
            composer.reset()
        }
        afterKey(&update)
    }

    /// The delete key, pressed or repeating: right after a smart change it restores what was typed.
    /// Shift does not change a delete; other modifiers go with it.
    private mutating func delete(_ update: inout Update) {
        let modifiers = state.modifiers.sorted()
        if modifiers.isEmpty, let replaced = composer.delete() {
            update.actions += replaced
        } else {
            update.actions.append(.keysym("BackSpace", modifiers: modifiers))
            if !modifiers.isEmpty { composer.reset() }
        }
        autoCapitalize(&update)
    }

    /// Shift on where the traits want a capital (start of input, of a sentence, of a word), and off again
    /// where they do not, unless a finger holds shift or caps lock is on. A tap on shift overrides it.
    private mutating func autoCapitalize(_ update: inout Update) {
        guard state.shift != .capsLock, shiftHold == nil else { return }
        let wanted = composer.wantsCapital
        if wanted && state.shift == .off {
            state.shift = .on
            autoShift = true
            relayoutForShift(&update)
        } else if !wanted && state.shift == .on && autoShift {
            state.shift = .off
            autoShift = false
            relayoutForShift(&update)
        }
    }

    /// One-shot shift and modifiers end after one key, unless shift is held down by a finger.
    private mutating func afterKey(_ update: inout Update) {
        if !state.modifiers.isEmpty {
            let latched = state.modifiers
            state.modifiers = []
            update.changedKeys.formUnion(keys { if case .keysym(let n) = $0 { latched.contains(n) } else { false } })
        }
        if var hold = shiftHold {
            hold.typed = true
            shiftHold = hold
        } else if state.shift == .on {
            state.shift = .off
            autoShift = false
            relayoutForShift(&update)
        }
        autoCapitalize(&update)
    }

    private mutating func shiftPressed(at time: Double, _ update: inout Update) {
        autoShift = false
        switch state.shift {
        case .capsLock: state.shift = .off
        case .on: state.shift = time - lastShiftPress <= timing.doubleTap ? .capsLock : .off
        case .off: state.shift = .on
        }
        lastShiftPress = time
        relayoutForShift(&update)
    }

    /// After a shift change: the shifted layer in or out, and the shift keys drawn again.
    private mutating func relayoutForShift(_ update: inout Update) {
        let before = geometry.layer
        try? relayout()
        if geometry.layer != before {
            update.redrawAll = true
        } else {
            update.changedKeys.formUnion(keys { $0 == .shift || $0 == .capsLock })
        }
    }

    private mutating func relayout() throws(GeometryError) {
        var layer = baseLayer
        if layer == "letters" && state.shift != .off && layout.layers.contains("shifted") { layer = "shifted" }
        let key = "\(enabled[current])/\(layer)/\(size.width)x\(size.height)"
        if let cached = geometryCache[key] {
            geometry = cached
        } else {
            if geometryCache.count > 64 { geometryCache = [:] }
            geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: size.width, height: size.height,
                                                       options: options)
            geometryCache[key] = geometry
        }
        // Presses and popups belong to the old keys.
        touches = touches.filter { _, touch in Self.isModifierTouch(touch, in: geometry) }
        state.pressed = Set(touches.values.map(\.key))
        state.popups = []
    }

    private static func isModifierTouch(_ touch: Touch, in geometry: KeyboardGeometry) -> Bool {
        touch.key < geometry.keys.count && [KeyFunction.shift, .capsLock].contains(geometry.keys[touch.key].function)
    }

    private mutating func press(_ key: Int, _ update: inout Update) {
        state.pressed.insert(key)
        update.changedKeys.insert(key)
    }

    private mutating func unpress(_ key: Int, _ update: inout Update) {
        state.pressed.remove(key)
        update.changedKeys.insert(key)
        if let index = state.popups.firstIndex(where: { $0.key == key }) {
            state.popups.remove(at: index)
            update.popupsChanged = true
        }
    }

    private mutating func release(_ touch: Touch, _ update: inout Update) {
        guard touch.key < geometry.keys.count else { return }
        unpress(touch.key, &update)
    }

    private mutating func showPreview(for key: Int, _ update: inout Update) {
        let placed = geometry.keys[key]
        guard case .text(let text) = placed.function, text != " " else { return }
        state.popups.append(.preview(key: key, label: placed.label ?? text))
        update.popupsChanged = true
    }

    private mutating func openLongPress(key: Int, _ update: inout Update) {
        let placed = geometry.keys[key]
        state.popups.removeAll { $0.key == key }
        if placed.function == .globe {
            let titles = enabled.map { library[$0]!.title }
            state.popups.append(.keyboards(key: key, titles: titles, selected: current))
        } else if placed.function == .dismiss {
            // As the iPad's keyboard key: held, it undocks the keyboard (or docks it again).
            update.actions.append(.toggleFloating)
            return
        } else if case .text(let text) = placed.function {
            state.popups.append(.alternates(key: key, options: [text] + placed.alternates, selected: 0))
        }
        update.popupsChanged = true
    }

    /// Moves the selection of an open popup to follow the finger: across alternates, down the keyboard list.
    private mutating func choose(in index: Int, x: Double, y: Double, _ update: inout Update) {
        let rect = PopupLayout.rect(for: state.popups[index], in: geometry)
        let popup = state.popups[index]
        switch popup {
        case .alternates(let key, let options, let selected):
            let chosen = PopupLayout.cell(at: x - Double(rect.x), size: Double(rect.width), count: options.count)
            if chosen != selected { state.popups[index] = .alternates(key: key, options: options, selected: chosen) }
        case .keyboards(let key, let titles, let selected):
            let chosen = PopupLayout.cell(at: y - Double(rect.y), size: Double(rect.height), count: titles.count)
            if chosen != selected { state.popups[index] = .keyboards(key: key, titles: titles, selected: chosen) }
        case .preview:
            break
        }
        update.popupsChanged = state.popups[index] != popup
    }

    private func isPreview(_ popup: Popup) -> Bool {
        if case .preview = popup { return true }
        return false
    }

    private func keys(where match: (KeyFunction) -> Bool) -> Set<Int> {
        Set(geometry.keys.indices.filter { match(geometry.keys[$0].function) })
    }
}
