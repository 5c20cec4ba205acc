internal import Basics
internal import CCairoXlib
internal import CX11
internal import CXShape
internal import KeyboardModel
internal import Render
internal import XDisplay

/// The way back by touch: after the user dismissed the keyboard, a small round button at the edge of the
/// screen shows it again with one tap. It never takes the focus (override-redirect: no window manager frames
/// it or gives it the focus, and it asks for none), stays above other windows (raised again whenever one
/// covers it), and can be dragged out of the way.
final class ShowButton {
    /// Its diameter at 96 dpi; it grows with the screen's density.
    static let baseDiameter = 48
    /// How far a press may move and still be a tap, at 96 dpi.
    static let slop = 8
    let connection: DisplayConnection
    let window: UInt
    let diameter: Int
    private var display: OpaquePointer { connection.display }
    private(set) var isMapped = false
    /// Where the user dragged it, kept until the end of the run; nil for its place at the screen's edge.
    private var dragged: (x: Int, y: Int)?
    /// A press on it: where it began (root pixels), where the button was, and whether it became a drag.
    private var press: (start: (x: Int, y: Int), origin: (x: Int, y: Int), moved: Bool)?
    /// A tap on it.
    var tapped: () -> Void = {}

    init(connection: DisplayConnection, renderer: KeyboardRenderer) {
        self.connection = connection
        let display = connection.display
        let screen = connection.defaultScreen
        diameter = Self.baseDiameter * Self.density(connection) / 96
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.event_mask = ButtonPressMask | ButtonReleaseMask | Button1MotionMask | VisibilityChangeMask
        window = XCreateWindow(display, connection.rootWindow, 0, 0, UInt32(diameter), UInt32(diameter), 0,
                               XDefaultDepth(display, screen), UInt32(InputOutput), XDefaultVisual(display, screen),
                               UInt(CWOverrideRedirect | CWEventMask), &attributes)
        connection.name(window, instance: "keypane-show", title: "Show the keyboard")
        shapeToDisc()
        // Drawn once into a pixmap that is the window's background: the server repaints it, no Expose.
        let pixmap = XCreatePixmap(display, window, UInt32(diameter), UInt32(diameter), UInt32(XDefaultDepth(display, screen)))
        if let cairo = cairo_xlib_surface_create(display, pixmap, XDefaultVisual(display, screen), Int32(diameter), Int32(diameter)),
           let surface = try? Surface(adopting: cairo, width: diameter, height: diameter) {
            do { try renderer.drawShowButton(on: surface) } catch { warn("cannot draw the show button: \(error)") }
        }
        XSetWindowBackgroundPixmap(display, window, pixmap)
        XFreePixmap(display, pixmap)
    }

    deinit { XDestroyWindow(display, window) }

    /// Pixels per inch: the X resource Xft.dpi where the desktop sets one, else the screen's own size in
    /// millimetres; 96 when neither is sensible.
    static func density(_ connection: DisplayConnection) -> Int {
        let display = connection.display
        if let resources = XResourceManagerString(display) {
            for line in String(cString: resources).split(separator: "\n") where line.hasPrefix("Xft.dpi:") {
                let value = String(line.dropFirst("Xft.dpi:".count).filter { $0 != " " && $0 != "\t" })
                if let dpi = Double(value), (48...480).contains(dpi) {
                    return Int(dpi)
                }
            }
        }
        let screen = connection.defaultScreen
        let millimetres = Double(XDisplayWidthMM(display, screen))
        guard millimetres > 0 else { return 96 }
        let dpi = Double(XDisplayWidth(display, screen)) / (millimetres / 25.4)
        return (72...480).contains(dpi) ? max(96, Int(dpi)) : 96
    }

    /// Cuts the square window to a disc, one band of pixels per row.
    private func shapeToDisc() {
        let radius = Double(diameter) / 2
        var bands: [XRectangle] = []
        for row in 0..<diameter {
            let dy = Double(row) + 0.5 - radius
            let half = (radius * radius - dy * dy).squareRoot()
            let left = Int((radius - half).rounded())
            let width = diameter - 2 * left
            guard width > 0 else { continue }
            bands.append(XRectangle(x: Int16(left), y: Int16(row), width: UInt16(width), height: 1))
        }
        XShapeCombineRectangles(display, window, ShapeBounding, 0, 0, &bands, Int32(bands.count), ShapeSet, YXBanded)
    }

    /// Shows it at the right edge of `monitor`, near the bottom where the keyboard was (or where the user
    /// dragged it), raised above everything.
    func show(on monitor: Rect) {
        let margin = diameter / 3
        let spot = dragged ?? (monitor.x + monitor.width - diameter - margin, monitor.y + monitor.height - diameter - margin)
        let (x, y) = clamped(spot)
        XMoveWindow(display, window, Int32(x), Int32(y))
        XMapRaised(display, window)
        isMapped = true
    }

    func hide() {
        guard isMapped else { return }
        press = nil
        XUnmapWindow(display, window)
        isMapped = false
    }

    /// Handles an event of its window: presses, drags, taps, and being covered.
    func handle(_ event: XEvent) {
        switch event.type {
        case ButtonPress where event.xbutton.button == 1:
            var attributes = XWindowAttributes()
            XGetWindowAttributes(display, window, &attributes)
            press = ((Int(event.xbutton.x_root), Int(event.xbutton.y_root)), (Int(attributes.x), Int(attributes.y)), false)
        case MotionNotify:
            guard var current = press else { return }
            let dx = Int(event.xmotion.x_root) - current.start.x, dy = Int(event.xmotion.y_root) - current.start.y
            let slop = Self.slop * diameter / Self.baseDiameter
            if !current.moved && dx * dx + dy * dy <= slop * slop { return }
            current.moved = true
            press = current
            let (x, y) = clamped((current.origin.x + dx, current.origin.y + dy))
            dragged = (x, y)
            XMoveWindow(display, window, Int32(x), Int32(y))
        case ButtonRelease where event.xbutton.button == 1:
            guard let ended = press else { return }
            press = nil
            if !ended.moved { tapped() }
        case VisibilityNotify where event.xvisibility.state != VisibilityUnobscured:
            // Another window came over it: above again.
            if isMapped { XRaiseWindow(display, window) }
        default:
            break
        }
    }

    /// A position kept wholly on the screen.
    private func clamped(_ point: (x: Int, y: Int)) -> (x: Int, y: Int) {
        let size = connection.rootSize
        return (min(max(point.x, 0), max(0, size.width - diameter)), min(max(point.y, 0), max(0, size.height - diameter)))
    }
}
