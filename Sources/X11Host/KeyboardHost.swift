internal import Basics
internal import Accessibility
internal import CX11
internal import CXRandR
internal import EventLoop
internal import Trace
public import Injector
internal import KeyboardModel
internal import Words
public import Render
public import Sound
public import Typing
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

/// The keyboard put together: its window, the typing engine, the injector, the drawing and the sound, and
/// the event loop's sources that drive them. X events are routed to their handlers in XEventRouting.swift;
/// each feature lives in a file of its own (Placement, Painter, CaretWatch, DesktopSettings, ControlAnswers).
public final class KeyboardHost {
    let connection: DisplayConnection
    public internal(set) var engine: TypingEngine
    let injector: Injector
    let placement: Placement
    public var window: KeyboardWindow { placement.window }
    let painter: Painter
    let caret: CaretWatch
    /// The button that brings the dismissed keyboard back: made at the first dismissal (never at start-up),
    /// and never with `--no-show-button`.
    private(set) var showButton: ShowButton?
    /// The switches of switch scanning, grabbed while it is on.
    var scanSwitches: ScanSwitches?
    let settings: DesktopSettings
    /// The input click; nil when sound is off.
    let sound: InputClick?
    var display: OpaquePointer { connection.display }
    var randrEventBase: Int32 = 0
    var xkbEventBase: Int32 = 0
    let commandAtom: UInt
    let deleteWindowAtom: UInt
    private let instanceAtom: UInt
    let options: Options
    let loop = EventLoop()
    /// The control socket, or nil when it could not be made.
    private var control: ControlServer?
    /// The accessibility bus's focus events, when the keyboard follows the focus.
    var focusWatcher: FocusWatcher?
    /// The session's accessibility switch, turned on while the keyboard follows the focus.
    var accessibilityStatus: AccessibilityStatus?
    /// When the keyboard shows and hides as the focus moves (FieldFollowing.swift).
    var focusPolicy = FocusPolicy()
    /// Hides the keyboard a moment after the focus left text.
    private(set) lazy var fieldLeft = TimerSource { [unowned self] in focusLeftText() }
    /// Shows it again a moment after a click, when the focus stayed on text.
    private(set) lazy var fieldReturn = TimerSource { [unowned self] in focusReturned() }
    /// Reads the field's text before the caret once its caret has stopped moving.
    private(set) lazy var contextRead = TimerSource { [unowned self] in readContext() }
    /// Where the focused field's caret should be after the keyboard's keystrokes.
    var caretPrediction = CaretPrediction()
    /// The reads of the focused field's text under way.
    var contextReads = ContextReads()
    /// Touches and clicks are timed by when X saw them, not when the loop read them.
    var serverClock = ServerClock()
    /// Decodes words on a thread of its own (HostSuggestions.swift); nil when suggestions are off.
    var suggestionWorker: SuggestionWorker?
    /// The engine's suggestion generation when it was last asked.
    var lastSuggestionGeneration: Int?

    /// How long the screen must stay quiet before the keyboard docks again: a change (xrandr, a rotation)
    /// comes as a burst of RandR and root-window events, and only the last state matters.
    static let screenSettle = 0.01
    /// Docks the keyboard again once a burst of screen events has settled.
    private(set) lazy var screenSettled = TimerSource { [unowned self] in screenChanged() }
    /// Sets the fonts up, when start-up left that for once the first frame is out (`Options.startFonts`).
    var fontsToStart: (@Sendable () -> Void)?
    /// Whether keeping the language chosen failed (said once).
    private var languageFileFailed = false
    var emojiFileFailed = false
    /// How long the keyboard must be left alone before the memory freed meanwhile is given back.
    public static let memoryRest = 2.0
    /// Gives the system back the heap's free pages once the keyboard rests: a resize or a visit to
    /// other keyboards frees images and layouts in the middle of the heap, which malloc keeps otherwise.
    private(set) lazy var resting = TimerSource { _ = Self.mallocTrim?(0) }
    /// glibc's malloc_trim (malloc.h, which no module of the toolchain's Glibc includes).
    private static let mallocTrim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }
    /// The typing engine's timers: long press, delete repeat.
    private lazy var typingTimers = ClosureSource(interest: { [unowned self] _ in .at(engine.nextDeadline) },
                                                  turn: { [unowned self] _, now in
        guard let due = engine.nextDeadline, due <= now else { return }
        apply(engine.tick(at: now))
    })
    /// Keys drawn ahead, one a turn while nothing else is to do: the emoji pages next to the one shown, and
    /// the emoji keyboard's first while the Globe key that leads to it is held (KeyboardHost+Emoji.swift).
    /// Unicode's emoji list being read on its thread (KeyboardHost+Emoji.swift).
    var emojiReading: BackgroundWork?
    /// The emoji keyboard is in the Globe key's cycle, its emoji not read yet.
    var emojiPending = false
    var drawingAhead: [(geometry: KeyboardGeometry, key: Int)] = []
    var drawingAheadPlan: DrawingAheadPlan?
    /// Whether the keys planned ahead were named to the renderer, which decodes their emoji meanwhile.
    var drawingAheadNamed = false
    /// While the fonts the keys need are read on their thread, it looks again every 2 ms.
    private(set) lazy var drawAhead = ClosureSource(
        interest: { [unowned self] now in
            drawingAhead.isEmpty ? .nothing : .at(LabelFonts.isWideningUnderWay ? now + 0.002 : now)
        },
        turn: { [unowned self] _, now in if !LabelFonts.isWideningUnderWay { drawNextAhead() } })
    private lazy var signals = SignalSource([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]) { [unowned self] signal in
        switch signal {
        case SIGUSR1: hide()
        case SIGUSR2: show()
        default: loop.stop()
        }
    }

    public init(connection: DisplayConnection, engine: TypingEngine, injector: Injector, theme: Theme,
                options: Options, sound: InputClick? = nil) {
        self.connection = connection
        self.sound = sound
        self.engine = engine
        self.injector = injector
        self.options = options
        fontsToStart = options.startFonts
        commandAtom = connection.atom("_KEYPANE_COMMAND")
        deleteWindowAtom = connection.atom("WM_DELETE_WINDOW")
        instanceAtom = connection.atom(Self.instanceSelection(screen: connection.defaultScreen))
        placement = Placement(connection: connection, options: options, rows: engine.geometry.rows,
                              bar: engine.suggestionsEnabled)
        let renderer = KeyboardRenderer(theme: theme)
        renderer.labelScale = options.labelScale
        painter = Painter(renderer: renderer, window: placement.window)
        settings = DesktopSettings(connection: connection)
        Self.selectScreenAndKeymapEvents(connection, randr: &randrEventBase, xkb: &xkbEventBase)
        caret = CaretWatch(connection: connection, window: placement.window)
        caret.moved = { [unowned self] in caretMayHaveMoved() }
        XSetSelectionOwner(connection.display, instanceAtom, window.window, UInt(CurrentTime))
        let size = placement.keyboardSize
        if engine.size != size { try? self.engine.resize(width: size.width, height: size.height) }
        _ = signals
        if engine.timing.dwell > 0 { window.selectHover() }
        if self.engine.scanning != nil { grabScanSwitches() }
    }

    /// Takes the scanning switches; without them, scanning is off (said once).
    private func grabScanSwitches() {
        let switches = options.scanSwitches.compactMap(ScanSwitch.init)
        do {
            guard !switches.isEmpty else { throw ScanSwitchError("no switch named (--scan-switch KEY or button:N)") }
            scanSwitches = try ScanSwitches(connection: connection, switches: switches)
        } catch {
            warn("\(error); switch scanning is off")
            engine.scanning = nil
        }
    }

    /// A scanning switch went down: it picks or moves the highlight, or brings a hidden keyboard back.
    func scanSwitchPressed(pick: Bool) {
        guard window.isMapped else {
            show()
            return
        }
        apply(engine.scanSwitch(pick: pick, at: EventLoop.monotonicNow()))
    }

    private static func selectScreenAndKeymapEvents(_ connection: DisplayConnection, randr: inout Int32, xkb: inout Int32) {
        let display = connection.display
        var error: Int32 = 0
        if XRRQueryExtension(display, &randr, &error) != 0 {
            XRRSelectInput(display, connection.rootWindow,
                           Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        }
        XSelectInput(display, connection.rootWindow, StructureNotifyMask | PropertyChangeMask)
        var opcode: Int32 = 0, major = Int32(XkbMajorVersion), minor = Int32(XkbMinorVersion)
        if XkbQueryExtension(display, &opcode, &xkb, &error, &major, &minor) != 0 {
            let group = UInt(XkbGroupStateMask)
            XkbSelectEventDetails(display, UInt32(XkbUseCoreKbd), UInt32(XkbStateNotify), group, group)
            XkbSelectEvents(display, UInt32(XkbUseCoreKbd), UInt32(XkbNewKeyboardNotifyMask),
                            UInt32(XkbNewKeyboardNotifyMask))
        }
    }

    // MARK: - Running

    /// Shows the keyboard and runs until a signal or the window is closed. Returns the exit status.
    public func run() -> Int32 {
        let shown = showFirstFrame()
        Trace.step(shown != nil ? "first frame put from its picture" : "first frame drawn and flushed")
        if window.presentFirstExpose(limit: 0.1) { Trace.step("first frame on screen") }
        startFonts()                        // left for now when the first frame came from its picture
        // The keymap and the desktop's settings are read once the first frame is out, not on the first tap;
        // first, what a killed keyboard left on spare keycodes is emptied.
        let reclaimed = injector.reclaimLeftoverSpares()
        if reclaimed > 0 {
            warn("emptied \(reclaimed) spare keycode\(reclaimed == 1 ? "" : "s") that a keyboard stopped without "
                 + "clean-up (killed?) had left mapped")
        }
        injector.prepare()
        Trace.step("keymap read")
        if let read = options.restOfLibrary, let library = read([]) {
            engine.extendLibrary(library)
            Trace.step("other layouts read")
        }
        if shown != nil { drawFirstFrameAgain() }
        if let path = options.fontRecord, !LabelFonts.isNarrow, !LabelFonts.recordHeld {
            do {
                try painter.renderer.rememberFonts(at: path, labels: engine.geometry.keys.flatMap { [$0.label, $0.secondary] }
                    .compactMap { $0 })
            } catch {
                warn("\(error)")
            }
        }
        keepFirstFrame(shown: shown)
        if let sound {
            sound.start()
            settings.watch()
            Trace.step("sound thread started")
        }
        do {
            control = try ControlServer(path: ControlSocket.path(display: connection.name)) { [unowned self] in
                answer($0)
            }
        } catch {
            warn("\(error); keypane show, hide, set and type cannot reach this keyboard")
        }
        Trace.step("control socket open")
        // The emoji keyboard after the socket opened: a command sent meanwhile waits for neither.
        startEmoji()
        let bus = options.autoShow != .never ? followFocus() : nil
        Trace.step("accessibility bus joined")
        suggestionWorker = startSuggestions()
        Trace.step("suggestions started")
        // What start-up freed (the whole font configuration after a first start, the picture's bands, the
        // layouts' parsing) is given back now, not at the first rest.
        _ = Self.mallocTrim?(0)
        Trace.step("memory start-up freed given back")

        // The sources, in the order they take their turns after a wait.
        loop.add(self)                      // X events; the end of each round draws and flushes
        loop.add(injector)                  // keystrokes waiting for a client to read earlier ones
        loop.add(signals)                   // SIGUSR1 hides, SIGUSR2 shows, the others end the keyboard
        control.map { loop.add($0) }        // keypane show, hide, set, type, status
        loop.add(typingTimers)              // long press, delete repeat
        loop.add(screenSettled)             // dock again after a burst of screen changes
        loop.add(resting)                   // give back freed memory once events stop for a while
        loop.add(drawAhead)                 // emoji pages drawn ahead, a key a turn
        loop.add(caret.outsideTouch)        // a touch outside the keyboard: the caret may have moved
        bus.map { loop.add($0) }            // the accessibility bus: focus changes (FieldFollowing.swift)
        loop.add(fieldLeft)                 // hide a moment after the focus left text
        loop.add(fieldReturn)               // show again after a click, once physical typing hid it
        loop.add(contextRead)               // read the text before the caret when the caret rests
        suggestionWorker.map { loop.add($0) } // suggestions decoded on their thread

        do { try loop.run() } catch { warn("\(error); the keyboard stops") }
        shutdown()
        return 0
    }

    /// Gives back what Keypane borrowed from the X server: spare keycodes, the window.
    public func shutdown() {
        suggestionWorker?.stop()
        suggestionWorker = nil
        control?.close()
        control.map { loop.remove($0) }
        control = nil
        injector.restore()
        scanSwitches?.release()
        accessibilityStatus?.restore()
        window.unmap()
        XSync(display, 0)
    }

    // MARK: - Acting

    /// Types at once, and leaves the drawing for the end of the round: the keystroke never waits for pixels.
    func apply(_ update: Update) {
        var typed = false
        for action in update.actions {
            switch action {
            case .text, .keysym:
                if let scanSwitches, scanSwitches.isHeld {
                    scanSwitches.wait(action)
                } else {
                    typeKeystrokes([action])
                    typed = true
                }
            case .nextKeyboard:
                let next = (engine.current + 1) % engine.enabled.count
                if engine.enabled[next] == EmojiBoard.name { finishEmoji() }
                engine.select(keyboard: next)
                painter.noteAll()
                rememberLanguage()
            case .selectKeyboard(let index):
                if engine.enabled[index] == EmojiBoard.name { finishEmoji() }
                engine.select(keyboard: index)
                painter.noteAll()
                rememberLanguage()
            case .dismiss:
                hide()
                showShowButton()
            case .toggleFloating:
                placement.toggleFloating()
                place()
            }
        }
        if typed { XFlush(display) }
        learn(update)
        if update.emojiMemoryChanged { rememberEmoji() }
        if let click = update.click, settings.eventSoundsAllowed { sound?.play(click) }
        painter.note(update)
    }

    /// Types text and keys into the focused window.
    func typeKeystrokes(_ actions: [KeyAction]) {
        for action in actions {
            injector.perform(action)
            typedIntoField(action)
        }
    }

    /// Keeps the keyboard the person chose, when it is a language's, for the next start.
    private func rememberLanguage() {
        guard engine.layout.language != nil, let file = options.languageFile else { return }
        do { try file.write(engine.enabled[engine.current]) } catch {
            if !languageFileFailed { warn("\(error); the language chosen is not remembered for the next start") }
            languageFileFailed = true
        }
    }

    /// Shows the button that brings the keyboard back, making it the first time.
    private func showShowButton() {
        guard options.showButton else { return }
        if showButton == nil {
            showButton = ShowButton(connection: connection, renderer: painter.renderer)
            showButton?.tapped = { [unowned self] in show() }
        }
        showButton?.show(on: placement.monitor)
    }

    public func show() {
        guard mapWindow() else { return }
        painter.redrawAll(engine, handle: placement.handleRect)
        XFlush(display)
    }

    /// Maps the window, unless it is mapped; true when it was not. The window manager maps it while the
    /// keys are drawn.
    func mapWindow() -> Bool {
        showButton?.hide()
        guard !window.isMapped else { return false }
        window.map()
        XFlush(display)
        _ = engine.startScanning(at: EventLoop.monotonicNow())
        return true
    }

    public func hide() {
        _ = engine.cancelTouches()
        _ = engine.stopScanning()
        window.unmap()
        XFlush(display)
    }

    /// The screen changed: dock again on the right monitor (the named one, else the primary, else the
    /// first) at the right size. Layer, shift and keyboard stay; touches in progress are dropped, as the
    /// keys under them moved.
    private func screenChanged() {
        placement.monitorsChanged()
        place()
        if let showButton, showButton.isMapped { showButton.show(on: placement.monitor) }
    }

    /// Puts the window where it belongs now, docked or floating, lays the keys out for its size, and draws.
    private func place() {
        guard let size = placement.place(rows: engine.geometry.rows, laidOutAt: engine.size) else { return }
        _ = engine.cancelTouches()
        do { try engine.resize(width: size.width, height: size.height) } catch {
            warn("cannot lay the keyboard out at \(size.width)x\(size.height): \(error)")
        }
        painter.redrawAll(engine, handle: placement.handleRect)
    }
}

extension KeyboardGeometry {
    /// How many rows of keys, the suggestion bar (and the dismiss key in it) not counted.
    var rows: Int { Set(keys.filter { !$0.function.isSuggestion && !$0.flat }.map(\.rect.y)).count }
}
