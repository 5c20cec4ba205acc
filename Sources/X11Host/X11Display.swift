internal import CX11
internal import EventLoop
internal import Injector
internal import KeyboardCore
internal import KeyboardModel
internal import Render
internal import Typing
internal import XDisplay

/// The keyboard on an X11 display: its window and drawing, typing with XTest, its place on the monitors,
/// the button that brings it back, and the desktop's sound setting (`KeyboardDisplay`).
final class X11Display: KeyboardDisplay {
    let connection: DisplayConnection
    let placement: Placement
    var window: KeyboardWindow { placement.window }
    let painter: Painter
    let injector: Injector
    let settings: DesktopSettings
    let caret: CaretWatch
    /// The next key pressed, for the settings panel's scanning switch.
    let keyCapture: KeyCapture
    /// Whether the clipboard holds text, for the edit bar's Paste.
    let clipboard: ClipboardQuestion
    /// The switches of switch scanning, grabbed while it is on: keys picked while one is down wait for it
    /// to come up, as the focused window gets no keys during its grab.
    var scanSwitches: ScanSwitches?
    /// The button that brings the dismissed keyboard back: made at the first dismissal, never at start-up.
    private(set) var showButton: ShowButton?
    /// What the show button does when tapped.
    var showButtonTapped: () -> Void = {}

    init(connection: DisplayConnection, placement: Placement, painter: Painter, injector: Injector) {
        self.connection = connection
        self.placement = placement
        self.painter = painter
        self.injector = injector
        settings = DesktopSettings(connection: connection)
        caret = CaretWatch(connection: connection, window: placement.window)
        keyCapture = KeyCapture(connection: connection)
        clipboard = ClipboardQuestion(connection: connection, window: placement.window.window)
    }

    var isShown: Bool { window.isMapped }
    var frame: Rect { window.frame }
    var isFloating: Bool { placement.floating }
    var hasTouchscreen: Bool { window.hasTouchscreen() }
    var eventSoundsAllowed: Bool {
        // A click turned on after the start: the desktop's switch is read at the first.
        if !settings.watching { settings.watch() }
        return settings.eventSoundsAllowed
    }

    /// The theme name that follows the desktop's.
    static let desktopTheme = "desktop"
    var activeWindowProcess: Int? { caret.activeProcess }

    /// The window manager maps the window while the keys are drawn.
    func showWindow() -> Bool {
        showButton?.hide()
        guard !window.isMapped else { return false }
        window.map()
        return true
    }

    func hideWindow() { window.unmap() }

    func showRestoreButton() {
        if showButton == nil {
            showButton = ShowButton(connection: connection, renderer: painter.renderer)
            showButton?.tapped = { [unowned self] in showButtonTapped() }
        }
        showButton?.show(on: placement.monitor)
    }

    func stayAboveFullScreenWindow() {
        window.setTransient(for: caret.activeWindowIsFullScreen ? caret.activeWindow : nil)
    }

    func watchPhysicalKeys() { window.selectRawKeys() }

    func watchHover() { window.selectHover() }

    func takeScanSwitches(_ names: [String]) -> String? {
        scanSwitches?.release()
        scanSwitches = nil
        guard !names.isEmpty else { return nil }
        let switches = names.compactMap(ScanSwitch.init)
        guard switches.count == names.count else {
            return "bad scanning switch '\(names.first { ScanSwitch($0) == nil }!)': expected an X key name (F12, space) or button:N"
        }
        do { scanSwitches = try ScanSwitches(connection: placement.connection, switches: switches) } catch { return "\(error)" }
        return nil
    }

    func askClipboard(_ answer: @escaping (Bool) -> Void) { clipboard.ask(answer) }

    func captureKey(seconds: Double, _ done: @escaping (String?) -> Void) -> Bool {
        keyCapture.start(until: EventLoop.monotonicNow() + seconds, done)
    }

    func noteChanged(_ update: Update) { painter.note(update) }
    func noteAllChanged() { painter.noteAll() }
    func drawAll(_ engine: TypingEngine) { painter.redrawAll(engine.geometry, engine.state, handle: placement.handleRect) }

    func place(rows: Int, laidOutAt size: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        placement.place(rows: rows, laidOutAt: size)
    }

    func toggleFloating() { placement.toggleFloating() }

    func changeHeight(pixels: Int?, fraction: Double?) {
        placement.options.height = pixels
        placement.options.heightFraction = fraction
    }

    var themeName: String { followsDesktopTheme ? "desktop" : painter.renderer.theme.name }

    /// The theme follows the desktop's: dark while its GTK theme is a dark one (`--theme desktop`).
    private(set) var followsDesktopTheme = false

    func changeLook(theme: String?, labelScale: Double?) -> Bool {
        if theme == Self.desktopTheme {
            followsDesktopTheme = true
            settings.changed = { [unowned self] in
                guard followsDesktopTheme else { return }
                let theme: Theme = settings.themeIsDark ? .dark : .light
                if painter.renderer.theme != theme {
                    painter.renderer.theme = theme
                    painter.noteAll()
                }
            }
            if settings.watching { settings.changed?() } else { settings.watch() }
        } else if let theme {
            guard let named = Theme.named(theme) else { return false }
            followsDesktopTheme = false
            painter.renderer.theme = named
        }
        if let labelScale { painter.renderer.labelScale = labelScale }
        painter.noteAll()
        return true
    }

    func type(_ action: KeyAction) {
        if let scanSwitches, scanSwitches.isHeld {
            scanSwitches.wait(action)
        } else {
            injector.perform(action)
        }
    }

    /// A scanning switch came up, and its grab is over: what it picked meanwhile goes to the focused window.
    func typeWhatSwitchesHeld() {
        guard let scanSwitches else { return }
        for action in scanSwitches.takeWaiting() { injector.perform(action) }
    }

    func flush() { XFlush(connection.display) }

    /// The monitors changed: the show button goes where the keyboard docks now (the keyboard is placed by
    /// `Keyboard.place`).
    func monitorsChanged() {
        placement.monitorsChanged()
        if let showButton, showButton.isMapped { showButton.show(on: placement.monitor) }
    }
}
