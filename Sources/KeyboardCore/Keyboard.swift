public import EventLoop
public import KeyboardModel
public import Sound
public import Typing
internal import Basics
internal import Words

/// The keyboard's behaviour, apart from any display: the typing engine and what its updates ask for
/// (typing, another keyboard, dismissal, the click, learned words), showing and hiding, and the
/// components that follow the focused field, suggest words and read the emoji. It talks to the screen
/// only through a `KeyboardDisplay`.
public final class Keyboard {
    public internal(set) var engine: TypingEngine
    public let display: any KeyboardDisplay
    public internal(set) var configuration: Configuration
    /// The input click; nil while it is off or there is none.
    public internal(set) var sound: InputClick?
    /// Whether the click is wanted, and how loud (0 to 1): the settings panel changes them.
    public internal(set) var soundOn = true
    public internal(set) var soundVolume = 1.0
    /// After the dismiss key hides the keyboard, the button that brings it back is shown.
    var showButton: Bool
    let loop: EventLoop
    /// Follows the focused field; nil until `followFocus()`, and when the keyboard does not follow it.
    public private(set) var fields: FieldFollower?
    public private(set) lazy var suggestions = SuggestionClient(keyboard: self)
    public private(set) lazy var emoji = EmojiKeyboard(keyboard: self)
    public private(set) lazy var settings = SettingsController(keyboard: self)
    /// Whether keeping the language chosen failed (said once).
    private var languageFileFailed = false

    public init(engine: TypingEngine, display: any KeyboardDisplay, configuration: Configuration, sound: InputClick?,
                loop: EventLoop) {
        self.engine = engine
        self.display = display
        self.configuration = configuration
        self.sound = sound
        self.loop = loop
        showButton = configuration.showButton
        soundOn = sound != nil
        if let percent = configuration.settingsPanel?.values["volume"].flatMap(Double.init) { soundVolume = percent / 100 }
    }

    // MARK: - Acting

    /// Types at once, and leaves the drawing for the end of the round: the keystroke never waits for pixels.
    public func apply(_ update: Update) {
        for action in update.actions {
            switch action {
            case .text, .keysym:
                type([action])
            case .moveCaret(let characters, let selecting):
                // The field's own caret where the bus can set it, else arrow keys.
                if fields?.moveCaret(by: characters, selecting: selecting) == true { continue }
                type(KeyAction.arrows(characters, selecting: selecting))
            case .nextKeyboard:
                select((engine.current + 1) % engine.enabled.count)
            case .selectKeyboard(let index):
                select(index)
            case .dismiss:
                hide()
                if showButton { display.showRestoreButton() }
            case .toggleFloating:
                display.toggleFloating()
                place()
            case .openSettings:
                settings.open()
            case .changeSetting(let row):
                settings.change(row)
            case .closeSettings:
                settings.close()
            case .editSettingsEntry(let edit):
                settings.edit(edit)
            }
        }
        suggestions.learn(update)
        if update.emojiMemoryChanged { emoji.remember() }
        if update.asksClipboard {
            display.askClipboard { [weak self] hasText in
                guard let self else { return }
                apply(engine.clipboardChanged(hasText: hasText))
            }
        }
        if let click = update.click, soundOn, display.eventSoundsAllowed { sound?.play(click) }
        display.noteChanged(update)
    }

    /// Types text and keys into the focused application.
    public func type(_ actions: [KeyAction]) {
        for action in actions {
            display.type(action)
            fields?.typed(action)
        }
    }

    /// A touch or click on the keys.
    public func handle(_ input: InputEvent) { apply(engine.handle(input)) }

    /// A pointer resting on a key (dwell), or gone from the keyboard (nil).
    public func hover(x: Double, y: Double, time: Double) { apply(engine.hover(x: x, y: y, time: time)) }
    public func hoverEnded() { apply(engine.hoverEnded()) }

    /// When the engine's timers (long press, delete repeat) want a turn.
    public var nextDeadline: Double? { engine.nextDeadline }
    public func tick(at now: Double) { apply(engine.tick(at: now)) }

    /// A scanning switch went down: it picks or moves the highlight, or brings a hidden keyboard back.
    public func scanSwitchPressed(pick: Bool) {
        guard display.isShown else {
            show()
            return
        }
        apply(engine.scanSwitch(pick: pick, at: EventLoop.monotonicNow()))
    }

    /// The pick switch went up: a key it did not hold long enough to open types.
    public func scanSwitchReleased() {
        guard display.isShown else { return }
        apply(engine.scanSwitchReleased(at: EventLoop.monotonicNow()))
    }

    /// Turns scanning off (its switches could not be had).
    public func stopScanningForGood() { engine.scanning = nil }

    /// Another keyboard from the Globe key's cycle, kept for the next start when it is a language's.
    private func select(_ index: Int) {
        if engine.enabled[index] == EmojiBoard.name { emoji.finish() }
        engine.select(keyboard: index)
        display.noteAllChanged()
        rememberLanguage()
    }

    private func rememberLanguage() {
        guard engine.layout.language != nil, let file = configuration.languageFile else { return }
        do { try file.write(engine.enabled[engine.current]) } catch {
            if !languageFileFailed { warn("\(error); the language chosen is not remembered for the next start") }
            languageFileFailed = true
        }
    }

    // MARK: - Showing

    public func show() {
        guard showWindow() else { return }
        display.drawAll(engine)
        display.flush()
    }

    /// Puts the keyboard on screen, drawing nothing; true when it was not on screen.
    public func showWindow() -> Bool {
        guard display.showWindow() else { return false }
        display.flush()
        _ = engine.startScanning(at: EventLoop.monotonicNow())
        return true
    }

    public func hide() {
        // The keyboard comes back as a keyboard.
        settings.close()
        _ = engine.cancelTouches()
        _ = engine.stopScanning()
        display.hideWindow()
        display.flush()
    }

    public func toggle() { display.isShown ? hide() : show() }

    /// Places the keyboard where it belongs now, lays the keys out for its size, and draws. Touches in
    /// progress are dropped, as the keys under them moved; layer, shift and keyboard stay.
    public func place() {
        guard let size = display.place(rows: keyboardEngine.geometry.rows, laidOutAt: engine.size) else { return }
        _ = engine.cancelTouches()
        resize(to: size)
        display.drawAll(engine)
    }

    /// Lays the keys out at `size`.
    public func resize(to size: (width: Int, height: Int)) {
        guard engine.size != size else { return }
        _ = engine.cancelTouches()
        do {
            try engine.resize(width: size.width, height: size.height)
            if settings.isOpen { try changeKeyboardEngine { try $0.resize(width: size.width, height: size.height) } }
        } catch {
            warn("cannot lay the keyboard out at \(size.width)x\(size.height): \(error)")
        }
    }

    // MARK: - What the components ask of the engine

    /// Shows a keyboard type's keyboard in the language last shown, with the Return key and traits a
    /// field asks for; a type the layouts lack (user layouts replaced it) leaves the keyboard as it is.
    func choose(_ choice: FieldChoice) {
        if keyboardEngine.library[choice.type.rawValue] == nil { _ = readLayout(choice.type.rawValue) }
        // Under the settings panel, the field's keyboard waits for the panel to close.
        let terminalBar = changeKeyboardEngine { engine in
            let name = engine.keyboard(for: choice.type) ?? engine.enabled[engine.current]
            engine.fieldIsTerminal = choice.terminal
            engine.show(layout: name, returnKey: choice.returnKey, traits: choice.traits)
            engine.fieldIsMultiLine = choice.multiLine
            return engine.offerTerminalEditBar()
        }
        display.noteAllChanged()
        if !settings.isOpen { apply(terminalBar) }
    }

    /// Reads a layout not read yet (a keyboard type's, at the first field of that type, or another
    /// language's keyboard asked for) into the engine's library; false when there is no such layout or it
    /// cannot be read.
    func readLayout(_ name: String) -> Bool {
        guard keyboardEngine.library.available.contains(name), let read = configuration.restOfLibrary,
              let library = read([name]), library[name] != nil else { return false }
        changeKeyboardEngine { $0.extendLibrary(library) }
        return keyboardEngine.library[name] != nil
    }

    /// Every layout of the user's own, once the first frame is out.
    public func readRestOfLibrary() -> Bool {
        guard let read = configuration.restOfLibrary, let library = read([]) else { return false }
        engine.extendLibrary(library)
        return true
    }

    // MARK: - The focused field

    /// Gives the event loop a follower started after the start (the settings panel asked for one).
    public var followerStarted: ((FieldFollower) -> Void)?

    /// Starts following the focused field, unless told never to; the follower is an event-loop source.
    public func followFocus() -> FieldFollower? {
        guard configuration.autoShow != .never else { return nil }
        fields = FieldFollower(keyboard: self)
        return fields
    }

    /// A click elsewhere or another window may have moved the caret.
    public func caretMayHaveMoved() {
        if let fields { fields.caretMayHaveMoved() } else { resetContext() }
    }

    /// Another window became active, of process `processID` (nil when it does not say): of the fields
    /// applications say are focused, that process's has the focus.
    public func windowActivated(processID: Int?) {
        // Until its field says it holds lines, the trackpad moves across only.
        engine.fieldIsMultiLine = false
        fields?.windowActivated(processID: processID)
    }

    /// A key went down on a physical keyboard (not a synthesized one): it may hide the keyboard.
    public func physicalKeyPressed() { fields?.physicalKeyPressed() }

    /// A click or touch anywhere: it may bring the keyboard back to the focused field.
    public func pressedAnywhere(by press: FocusPolicy.Press) { fields?.pressedAnywhere(by: press) }

    /// Touch screens plugged in or out.
    public func touchscreensChanged() { fields?.touchscreensChanged() }

    /// Stops the suggestions' thread and gives the session's accessibility switch back.
    public func stop() {
        suggestions.stop()
        fields?.stop()
    }

    /// Whether a finger or the pointer is on the keys.
    var isTouched: Bool { engine.isTouched }

    // Under the settings panel, the keyboard's engine hears of the field, and nothing is drawn of it.
    func read(context text: String) {
        if settings.isOpen { changeKeyboardEngine { _ = $0.read(context: text) } } else { apply(engine.read(context: text)) }
    }
    func resetContext() {
        if settings.isOpen { changeKeyboardEngine { _ = $0.resetContext() } } else { apply(engine.resetContext()) }
    }

    func receive(_ suggestions: Suggestions) {
        if !settings.isOpen { apply(engine.receive(suggestions)) }
    }

    /// A language's dictionary failed: its keyboards lose their bar; false when no language has one left,
    /// and suggestions are off.
    func dictionaryFailed(language: String) -> Bool {
        _ = engine.cancelTouches()
        engine.dictionaryLanguages.remove(language)
        display.noteAllChanged()
        guard engine.dictionaryLanguages.isEmpty else { return true }
        engine.suggestionsEnabled = false
        return false
    }

    func turnSuggestionsOff() {
        engine.suggestionsEnabled = false
        display.noteAllChanged()
    }

    /// How many times an emoji keyboard was put in (read, its first page, or emptied): what is drawn
    /// ahead follows it.
    public private(set) var emojiBoardsAdded = 0

    func addEmoji(_ board: EmojiBoard) {
        let globe = engine.options.showsGlobe
        engine.addEmoji(board)
        emojiBoardsAdded += 1
        // A single keyboard gets its Globe key.
        if engine.options.showsGlobe != globe { display.noteAllChanged() }
    }

    /// Shows a keyboard by name with a Return key (`keypane set`).
    func show(layout: String, returnKey: ReturnKeyType) {
        _ = engine.cancelTouches()
        if layout == EmojiBoard.name { emoji.finish() }
        engine.show(layout: layout, returnKey: returnKey)
        display.noteAllChanged()
    }

    /// The end of a round of events: the word changed this round is decoded while the keystroke is on its
    /// way; the emoji wanted soon are read.
    public func endOfRound() {
        suggestions.askIfChanged()
        emoji.prepareIfWanted()
    }
}

extension KeyboardGeometry {
    /// How many rows of keys, the suggestion bar (and the dismiss key in it) not counted.
    public var rows: Int { Set(keys.filter { !$0.function.isSuggestion && !$0.flat }.map(\.rect.y)).count }
}
