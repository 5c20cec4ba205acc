internal import Basics
internal import CX11
internal import CXRandR
internal import EventLoop
internal import Trace
public import Injector
public import KeyboardCore
internal import KeyboardModel
public import Render
public import Sound
public import Typing
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

/// The keyboard on X11, wired: it makes the display's parts (`X11Display`) and the keyboard's behaviour
/// (`Keyboard`) with its components, adds each to the event loop, and routes X events to them
/// (XEventRouting.swift).
public final class KeyboardHost {
    let connection: DisplayConnection
    public let keyboard: Keyboard
    let screen: X11Display
    let options: Options
    let loop = EventLoop()
    let firstFrame: FirstFrame
    let drawingAhead: DrawingAhead
    let memoryRest = MemoryRest()
    /// Clicks and touches anywhere, on a connection of their own (opened after the first frame); nil when
    /// it could not be opened.
    private(set) var outsidePresses: OutsidePresses?
    /// The control socket, or nil when it could not be made.
    private var control: ControlServer?
    /// Touches and clicks are timed by when X saw them, not when the loop read them.
    var serverClock = ServerClock()
    var randrEventBase: Int32 = 0
    var xkbEventBase: Int32 = 0
    let commandAtom: UInt
    let deleteWindowAtom: UInt

    var display: OpaquePointer { connection.display }
    public var window: KeyboardWindow { screen.window }

    /// How long the keyboard must be left alone before the memory freed meanwhile is given back.
    public static var memoryRest: Double { MemoryRest.rest }
    /// How long the screen must stay quiet before the keyboard docks again: a change (xrandr, a rotation)
    /// comes as a burst of RandR and root-window events, and only the last state matters.
    static let screenSettle = 0.01
    /// Docks the keyboard again once a burst of screen events has settled.
    private(set) lazy var screenSettled = TimerSource { [unowned self] in
        screen.monitorsChanged()
        keyboard.place()
    }
    /// The typing engine's timers: long press, delete repeat.
    private lazy var typingTimers = ClosureSource(interest: { [unowned self] _ in .at(keyboard.nextDeadline) },
                                                  turn: { [unowned self] _, now in
        guard let due = keyboard.nextDeadline, due <= now else { return }
        keyboard.tick(at: now)
    })
    private lazy var signals = SignalSource([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]) { [unowned self] signal in
        switch signal {
        case SIGUSR1: keyboard.hide()
        case SIGUSR2: keyboard.show()
        default: loop.stop()
        }
    }

    public init(connection: DisplayConnection, engine: TypingEngine, injector: Injector, theme: Theme,
                options: Options, sound: InputClick? = nil) {
        self.connection = connection
        self.options = options
        commandAtom = connection.atom("_KEYPANE_COMMAND")
        deleteWindowAtom = connection.atom("WM_DELETE_WINDOW")
        let instanceAtom = connection.atom(Self.instanceSelection(screen: connection.defaultScreen))
        let placement = Placement(connection: connection, options: options, rows: engine.geometry.rows,
                                  bar: engine.suggestionsEnabled)
        let renderer = KeyboardRenderer(theme: theme)
        renderer.labelScale = options.labelScale
        screen = X11Display(connection: connection, placement: placement,
                            painter: Painter(renderer: renderer, window: placement.window), injector: injector)
        // The desktop's theme read before the first frame, which it colours.
        if options.themeFollowsDesktop { _ = screen.changeLook(theme: X11Display.desktopTheme, labelScale: nil) }
        keyboard = Keyboard(engine: engine, display: screen, configuration: options.keyboard, sound: sound, loop: loop)
        firstFrame = FirstFrame(keyboard: keyboard, display: screen, options: options)
        drawingAhead = DrawingAhead(keyboard: keyboard, display: screen)
        Self.selectScreenAndKeymapEvents(connection, randr: &randrEventBase, xkb: &xkbEventBase)
        screen.caret.moved = { [unowned self] in keyboard.caretMayHaveMoved() }
        screen.caret.activated = { [unowned self] in keyboard.windowActivated(processID: $0) }
        screen.showButtonTapped = { [unowned self] in keyboard.show() }
        XSetSelectionOwner(connection.display, instanceAtom, window.window, UInt(CurrentTime))
        keyboard.resize(to: placement.keyboardSize)
        _ = signals
        if engine.timing.dwell > 0 { screen.watchHover() }
        if engine.scanning != nil { grabScanSwitches() }
    }

    /// Takes the scanning switches; without them, scanning is off (said once).
    private func grabScanSwitches() {
        let problem = options.scanSwitches.isEmpty ? "no switch named (--scan-switch KEY or button:N)"
            : screen.takeScanSwitches(options.scanSwitches)
        if let problem {
            warn("\(problem); switch scanning is off")
            keyboard.stopScanningForGood()
        }
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
        let shown = firstFrame.show()
        Trace.step(shown != nil ? "first frame put from its picture" : "first frame drawn and flushed")
        if window.presentFirstExpose(limit: 0.1) { Trace.step("first frame on screen") }
        firstFrame.startFonts()             // left for now when the first frame came from its picture
        // The keymap and the desktop's settings are read once the first frame is out, not on the first tap;
        // first, what a killed keyboard left on spare keycodes is emptied.
        let reclaimed = screen.injector.reclaimLeftoverSpares()
        if reclaimed > 0 {
            warn("emptied \(reclaimed) spare keycode\(reclaimed == 1 ? "" : "s") that a keyboard stopped without "
                 + "clean-up (killed?) had left mapped")
        }
        screen.injector.prepare()
        Trace.step("keymap read")
        watchPressesAnywhere()
        if keyboard.readRestOfLibrary() { Trace.step("other layouts read") }
        if shown != nil { firstFrame.drawAgain() }
        firstFrame.rememberFonts()
        firstFrame.keep(shown: shown)
        if let sound = keyboard.sound {
            sound.start()
            screen.settings.watch()
            Trace.step("sound thread started")
        }
        do {
            control = try ControlServer(path: ControlSocket.path(display: connection.name)) { [unowned self] in
                keyboard.answer($0)
            }
        } catch {
            warn("\(error); keypane show, hide, set and type cannot reach this keyboard")
        }
        Trace.step("control socket open")
        // The emoji keyboard after the socket opened: a command sent meanwhile waits for neither.
        keyboard.emoji.start()
        let fields = keyboard.followFocus()
        Trace.step("accessibility bus joined")
        keyboard.suggestions.start()
        Trace.step("suggestions started")
        // What start-up freed (the whole font configuration after a first start, the picture's bands, the
        // layouts' parsing) is given back now, not at the first rest.
        memoryRest.giveBackNow()
        Trace.step("memory start-up freed given back")

        // The sources, in the order they take their turns after a wait.
        loop.add(self)                      // X events; the end of each round draws and flushes
        loop.add(screen.injector)           // keystrokes waiting for a client to read earlier ones
        loop.add(keyboard.emoji)            // the emoji list read on its thread (started by the round's end)
        loop.add(signals)                   // SIGUSR1 hides, SIGUSR2 shows, the others end the keyboard
        control.map { loop.add($0) }        // keypane show, hide, set, type, status
        loop.add(typingTimers)              // long press, delete repeat
        loop.add(screenSettled)             // dock again after a burst of screen changes
        loop.add(memoryRest)                // give back freed memory once events stop for a while
        loop.add(drawingAhead)              // emoji pages drawn ahead, a key a turn
        outsidePresses.map { loop.add($0) } // clicks and touches anywhere, while the keyboard is not typed on
        loop.add(screen.caret.outsidePress) // a click or touch outside the keyboard: the caret may have moved
        loop.add(screen.keyCapture)         // a key pressed for the settings panel (its scanning switch)
        fields.map { loop.add($0) }         // the accessibility bus and the field's timers
        keyboard.followerStarted = { [unowned loop] in loop.add($0) }
        loop.add(keyboard.suggestions)      // suggestions decoded on their thread

        do { try loop.run() } catch { warn("\(error); the keyboard stops") }
        shutdown()
        return 0
    }

    /// Opens the connection that clicks and touches anywhere come on (a second one: not before the first
    /// frame).
    private func watchPressesAnywhere() {
        guard window.xiOpcode != nil else { return }
        outsidePresses = OutsidePresses(display: connection.name)
        guard let outsidePresses else {
            return warn("cannot open a second connection to the X server: a click outside the keyboard goes "
                        + "unseen (what is typed next does not start afresh)")
        }
        outsidePresses.pressed = { [unowned self] in routeAnywhere($0) }
        Trace.step("presses anywhere watched")
    }

    /// Gives back what Keypane borrowed from the X server: spare keycodes, the window.
    public func shutdown() {
        keyboard.stop()
        control?.close()
        control.map { loop.remove($0) }
        control = nil
        screen.injector.restore()
        screen.scanSwitches?.release()
        window.unmap()
        XSync(display, 0)
    }
}
