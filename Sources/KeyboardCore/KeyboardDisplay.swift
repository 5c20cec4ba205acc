public import KeyboardModel
public import Typing

/// What the keyboard's behaviour needs from the display it is shown on: a window to show and draw, a way
/// to type into the focused application, a place on the screen. X11 is one (X11Host's `X11Display`); a
/// Wayland one would be another, with the components of this module unchanged.
///
/// Events go the other way through the `Keyboard`'s entry points: `handle(_:)` for touches and clicks on
/// the keys, `physicalKeyPressed()`, `pressedAnywhere(by:)`, `windowActivated(processID:)`,
/// `touchscreensChanged()`, `place()` when the screen changed.
public protocol KeyboardDisplay: AnyObject {
    /// Whether the keyboard is on screen.
    var isShown: Bool { get }
    /// Where the keyboard is, in screen pixels (a focused field is scrolled clear of it).
    var frame: Rect { get }
    /// Whether the keyboard floats where it was dragged, rather than docked.
    var isFloating: Bool { get }
    /// Whether a touchscreen is plugged in.
    var hasTouchscreen: Bool { get }
    /// The process of the window the window manager says is active, when it says (X11: _NET_WM_PID).
    var activeWindowProcess: Int? { get }
    /// Whether the desktop's settings allow event sounds, the input click among them.
    var eventSoundsAllowed: Bool { get }

    /// Puts the keyboard on screen, nothing drawn yet; false when it was on screen already.
    func showWindow() -> Bool
    /// Takes the keyboard off screen.
    func hideWindow()
    /// Shows the button that brings a dismissed keyboard back.
    func showRestoreButton()
    /// Keeps the keyboard above the active window when that one is full screen (a kiosk's browser), which
    /// window managers stack above docks.
    func stayAboveFullScreenWindow()
    /// Starts reporting keys pressed on physical keyboards (`Keyboard.physicalKeyPressed`).
    func watchPhysicalKeys()
    /// Starts reporting the pointer resting over the keys (`Keyboard.hover`), for dwell.
    func watchHover()
    /// Takes the switches of switch scanning by name (F12, button:3) from every application, in place of
    /// any taken before; what went wrong, or nil. With none named, lets them go.
    func takeScanSwitches(_ names: [String]) -> String?
    /// Asks whether the clipboard holds text; `answer` gets it later, in the loop (never, when its owner
    /// does not answer).
    func askClipboard(_ answer: @escaping (Bool) -> Void)
    /// Waits up to `seconds` for the next key pressed anywhere, which reaches no application, and gives
    /// its name (F12, space), or nil when none came; false when keys cannot be had now.
    func captureKey(seconds: Double, _ done: @escaping (String?) -> Void) -> Bool

    /// Notes what an update changed, to draw at the end of the round.
    func noteChanged(_ update: Update)
    /// Notes that everything is to be drawn again at the end of the round.
    func noteAllChanged()
    /// Draws the whole keyboard now.
    func drawAll(_ engine: TypingEngine)
    /// Places the keyboard, docked or floating, for `rows` rows of keys: the size to lay the keys out at,
    /// or nil when they are laid out at the right size already.
    func place(rows: Int, laidOutAt size: (width: Int, height: Int)) -> (width: Int, height: Int)?
    /// Docks a floating keyboard, or floats a docked one.
    func toggleFloating()
    /// Draws with another theme (by name: light, dark, high-contrast, high-contrast-dark) or label size
    /// (a scale of the usual size) from the next frame; false for a theme it does not know.
    func changeLook(theme: String?, labelScale: Double?) -> Bool
    /// The docked keyboard's height from the next placing: pixels, or a share of the monitor's height;
    /// neither, the usual height for the monitor.
    func changeHeight(pixels: Int?, fraction: Double?)
    /// The theme drawn with, by name.
    var themeName: String { get }

    /// Types text or a key into the focused application, after what it was given before, and sends it at
    /// once: the drawing that follows waits for the end of the round.
    func type(_ action: KeyAction)
    /// Sends what was drawn and typed.
    func flush()
}
