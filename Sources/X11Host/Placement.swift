internal import Basics
internal import CX11
internal import KeyboardModel
internal import XDisplay

/// Where the keyboard's window is: docked at the bottom of a monitor with struts, or floating where the user
/// dragged it by its handle. Owns the window's frame and struts, the monitors as RandR last reported them,
/// and the floating position kept between runs.
final class Placement {
    let connection: DisplayConnection
    /// The host's options; the docked height changes with the settings panel.
    var options: KeyboardHost.Options
    let window: KeyboardWindow
    /// Docked at the bottom, or floating.
    private(set) var floating: Bool
    /// Where the floating keyboard was last put, kept between runs.
    private var position: (x: Int, y: Int)?
    /// The monitors, as RandR last reported them.
    private var monitors: [Monitor]
    /// A drag of the floating keyboard's handle: which touch, where it began (root pixels), and where the
    /// window was then.
    private var drag: (touch: Int, start: (x: Int, y: Int), origin: (x: Int, y: Int))?
    /// Whether saving the position has failed once already: said once, not on every drag.
    private var saveFailed = false
    /// Whether room is made for the suggestion bar.
    var bar: Bool

    /// Reads the monitors and the kept position, and makes the window where a keyboard of `rows` rows goes.
    init(connection: DisplayConnection, options: KeyboardHost.Options, rows: Int, bar: Bool) {
        self.connection = connection
        self.options = options
        floating = options.floating
        do { position = try options.positionFile?.load() } catch {
            warn("\(error); the floating keyboard starts at the bottom of the screen")
        }
        monitors = connection.monitors()
        self.bar = bar
        let placement = Self.placement(connection: connection, monitors: monitors, options: options, rows: rows, bar: bar,
                                       floating: floating, position: position)
        window = KeyboardWindow(connection: connection, frame: placement.frame)
        window.setStrut(placement.strut)
    }

    /// The window's frame and struts: docked at the bottom of the monitor, or floating (no struts).
    static func placement(connection: DisplayConnection, monitors: [Monitor], options: KeyboardHost.Options, rows: Int,
                          bar: Bool, floating: Bool, position: (x: Int, y: Int)?) -> (frame: Rect, strut: [Int]) {
        let chosen = DockPlacement.choose(monitors, named: options.monitor)
        if floating {
            let size = FloatingPlacement.size(on: chosen.rect, rows: rows, bar: bar)
            let frame = FloatingPlacement.frame(at: position, size: size, monitors: monitors, fallback: chosen)
            return (frame, Array(repeating: 0, count: 12))
        }
        let monitor = chosen.rect
        var height = options.height ?? options.heightFraction.map { Int(Double(monitor.height) * $0) }
            ?? DockPlacement.height(for: monitor, rows: rows, pixelsPerMillimetre: chosen.pixelsPerMillimetre, bar: bar)
        height = min(max(height, 60), monitor.height)
        let frame = DockPlacement.frame(on: monitor, height: height)
        return (frame, DockPlacement.strut(frame: frame, rootHeight: connection.rootSize.height))
    }

    /// The monitor the keyboard docks on.
    var monitor: Rect { DockPlacement.choose(monitors, named: options.monitor).rect }

    /// The keys' area of the window: all of it docked, all but the handle floating.
    var keyboardSize: (width: Int, height: Int) {
        (window.frame.width, window.frame.height - (floating ? FloatingPlacement.handleHeight : 0))
    }

    /// The handle strip along the bottom of the floating keyboard, in window pixels.
    var handleRect: Rect? {
        guard floating else { return nil }
        let f = window.frame
        return Rect(x: 0, y: f.height - FloatingPlacement.handleHeight, width: f.width, height: FloatingPlacement.handleHeight)
    }

    /// Puts the window where it belongs now for a keyboard of `rows` rows. Returns the keys' new size when
    /// the frame or that size changed (the keyboard must be laid out again and drawn), else nil.
    func place(rows: Int, laidOutAt current: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        let placement = Self.placement(connection: connection, monitors: monitors, options: options, rows: rows, bar: bar,
                                       floating: floating, position: position)
        window.setStrut(placement.strut)
        let frameChanged = placement.frame != window.frame
        if frameChanged { window.setFrame(placement.frame) }
        let size = keyboardSize
        return frameChanged || size != current ? size : nil
    }

    /// The screen changed: read the monitors again. A drag in progress ends, as the keys moved.
    func monitorsChanged() {
        monitors = connection.monitors()
        drag = nil
    }

    /// Undocks, or docks again (the caller places the window).
    func toggleFloating() {
        floating.toggle()
        drag = nil
    }

    // MARK: - Dragging the floating keyboard

    /// The touch (or `InputEvent.pointer`) dragging the handle, if any.
    var draggingTouch: Int? { drag?.touch }

    /// Starts a drag when a touch or click lands on the handle. True when it did.
    func beginDrag(touch: Int, y: Double, root: (x: Int, y: Int)) -> Bool {
        guard let handle = handleRect, drag == nil, Int(y) >= handle.y else { return false }
        drag = (touch, root, (window.frame.x, window.frame.y))
        return true
    }

    /// Follows the dragging finger, keeping the keyboard wholly on a monitor.
    func continueDrag(root: (x: Int, y: Int)) {
        guard let drag else { return }
        let wanted = (x: drag.origin.x + root.x - drag.start.x, y: drag.origin.y + root.y - drag.start.y)
        let chosen = DockPlacement.choose(monitors, named: options.monitor)
        let frame = FloatingPlacement.frame(at: wanted, size: (window.frame.width, window.frame.height),
                                            monitors: monitors, fallback: chosen)
        if frame != window.frame { window.setFrame(frame) }
    }

    /// Ends a drag and keeps the position for the next run.
    func endDrag() {
        drag = nil
        position = (window.frame.x, window.frame.y)
        guard let file = options.positionFile, let position else { return }
        do { try file.save(x: position.x, y: position.y) } catch {
            if !saveFailed { warn("\(error); the position is kept only while running") }
            saveFailed = true
        }
    }
}
