internal import CCairoXlib
internal import CX11
internal import CXInput2
internal import CXRender
internal import EventLoop
public import KeyboardModel
internal import Render
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

/// The keyboard's X window: never focused, docked with struts, drawn through a back-buffer pixmap.
public final class KeyboardWindow {
    let connection: DisplayConnection
    public let window: UInt
    var display: OpaquePointer { connection.display }
    let gc: GC
    /// The back buffer: keys and popups, as the window shows them.
    private(set) var pixmap: Pixmap = 0
    /// The keys without popups, so that closing a popup is a copy, not a redraw.
    private(set) var cleanPixmap: Pixmap = 0
    /// The cairo surfaces on the two buffers, made when first drawn on: a first frame shown from its
    /// picture (FrameSnapshot) needs none, and cairo's first surface on a display costs round trips.
    private var surfaces: (front: Surface?, clean: Surface?)?
    /// The cairo surface on the back buffer: keys and popups, as the window shows them.
    var surface: Surface? { madeSurfaces().front }
    /// The cairo surface on the keys without popups.
    var cleanSurface: Surface? { madeSurfaces().clean }
    public private(set) var frame: Rect
    /// The XI2 opcode when touches are selected, else nil (core pointer only).
    public private(set) var xiOpcode: Int32?
    public private(set) var isMapped = false

    public init(connection: DisplayConnection, frame: Rect) {
        self.connection = connection
        self.frame = frame
        let display = connection.display
        let screen = connection.defaultScreen
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = XBlackPixel(display, screen)
        attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | Button1MotionMask
            | StructureNotifyMask
        attributes.bit_gravity = Int32(NorthWestGravity)
        window = XCreateWindow(display, connection.rootWindow, Int32(frame.x), Int32(frame.y), UInt32(frame.width),
                               UInt32(frame.height), 0, XDefaultDepth(display, screen), UInt32(InputOutput),
                               XDefaultVisual(display, screen),
                               UInt(CWBackPixel | CWEventMask | CWBitGravity), &attributes)
        // Copies between our own pixmaps and the window never need exposure events back: without
        // graphics_exposures off, every copy would wake the loop with a NoExpose.
        var values = XGCValues()
        values.graphics_exposures = 0
        gc = XCreateGC(display, window, UInt(GCGraphicsExposures), &values)
        setHints()
        selectTouch()
        makeBackBuffer()
    }

    deinit {
        surfaces = nil
        for buffer in [pixmap, cleanPixmap] where buffer != 0 { XFreePixmap(display, buffer) }
        XFreeGC(display, gc)
        XDestroyWindow(display, window)
    }

    // MARK: - Hints

    private func setHints() {
        // ICCCM "No Input": the window manager never gives us focus, and we never ask.
        if let hints = XAllocWMHints() {
            hints.pointee.flags = InputHint | StateHint
            hints.pointee.input = 0
            hints.pointee.initial_state = NormalState
            XSetWMHints(display, window, hints)
            XFree(hints)
        }
        var deleteWindow = connection.atom("WM_DELETE_WINDOW")
        XSetWMProtocols(display, window, &deleteWindow, 1)

        connection.name(window, instance: "keypane", title: "Keypane")
        setUTF8Property("_NET_WM_NAME", "Keypane")
        setAtoms("_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_DOCK"])
        setAtoms("_NET_WM_STATE", ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR",
                                   "_NET_WM_STATE_SKIP_PAGER"])
        setCardinals("_NET_WM_DESKTOP", [0xFFFF_FFFF])
        setSizeHints()
    }

    private func setSizeHints() {
        guard let size = XAllocSizeHints() else { return }
        size.pointee.flags = USPosition | PPosition | PSize | PMinSize | PMaxSize
        size.pointee.x = Int32(frame.x)
        size.pointee.y = Int32(frame.y)
        size.pointee.width = Int32(frame.width)
        size.pointee.height = Int32(frame.height)
        size.pointee.min_width = Int32(frame.width)
        size.pointee.max_width = Int32(frame.width)
        size.pointee.min_height = Int32(frame.height)
        size.pointee.max_height = Int32(frame.height)
        XSetWMNormalHints(display, window, size)
        XFree(size)
    }

    /// Reserves the keyboard's space at the bottom of the screen.
    public func setStrut(_ values: [Int]) {
        setCardinals("_NET_WM_STRUT_PARTIAL", values)
        setCardinals("_NET_WM_STRUT", Array(values.prefix(4)))
    }

    /// Whether the window is transient for another (WM_TRANSIENT_FOR), and for which.
    public private(set) var transientFor: UInt?

    /// Makes the keyboard transient for a window, or for none: a window manager stacks a transient above its
    /// window even when that window is full screen (openbox puts a focused full-screen window above docks).
    func setTransient(for owner: UInt?) {
        guard owner != transientFor else { return }
        transientFor = owner
        if let owner {
            XSetTransientForHint(display, window, owner)
        } else {
            XDeleteProperty(display, window, connection.atom("WM_TRANSIENT_FOR"))
        }
    }

    private func setAtoms(_ property: String, _ names: [String]) {
        var atoms = names.map { connection.atom($0) }
        atoms.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(display, window, connection.atom(property), XA_ATOM, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(names.count))
        }
    }

    private func setCardinals(_ property: String, _ values: [Int]) {
        // Format-32 properties are passed to Xlib as longs.
        var longs = values.map { Int($0) }
        longs.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(display, window, connection.atom(property), XA_CARDINAL, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    private func setUTF8Property(_ property: String, _ value: String) {
        var bytes = Array(value.utf8)
        _ = XChangeProperty(display, window, connection.atom(property), connection.atom("UTF8_STRING"), 8,
                            PropModeReplace, &bytes, Int32(bytes.count))
    }

    // MARK: - Touch

    /// With `rawKeys`, raw key presses of the physical keyboards (they hide a keyboard that follows the
    /// focus) and device changes, to follow keyboards plugged in later, without grabbing anything. XTest's
    /// devices are left out, so the keystrokes Keypane sends never come back to wake it. (Raw clicks and
    /// touches come on a connection of their own: `OutsidePresses`.)
    private func selectRaw() {
        guard rawKeys else { return }
        var masks: [(device: Int32, types: [Int32])] = [(XIAllDevices, [XI_HierarchyChanged])]
        var count: Int32 = 0
        if let devices = XIQueryDevice(display, XIAllDevices, &count) {
            defer { XIFreeDeviceInfo(devices) }
            for index in 0..<Int(count) where devices[index].use == XISlaveKeyboard
                && devices[index].name.map({ strstr($0, "XTEST") == nil }) == true {
                masks.append((devices[index].deviceid, [XI_RawKeyPress]))
            }
        }
        XInput2.select(display, window: connection.rootWindow, masks)
    }

    /// Whether raw key presses of physical keyboards are selected.
    private var rawKeys = false

    /// Whether a touch screen (an XI2 device with direct touch) is plugged in.
    func hasTouchscreen() -> Bool {
        guard xiOpcode != nil else { return false }
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return false }
        defer { XIFreeDeviceInfo(devices) }
        for index in 0..<Int(count) where devices[index].use == XISlavePointer {
            let device = devices[index]
            for c in 0..<Int(device.num_classes) {
                guard let info = device.classes[c], info.pointee.type == XITouchClass else { continue }
                let touch = UnsafeRawPointer(info).assumingMemoryBound(to: XITouchClassInfo.self).pointee
                if touch.mode == XIDirectTouch { return true }
            }
        }
        return false
    }

    /// Selects raw key presses of the physical keyboards, from now on and for those plugged in later.
    /// Motion without a button down, and the pointer leaving: for dwell.
    func selectHover() {
        XSelectInput(display, window, ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
                        | LeaveWindowMask | StructureNotifyMask)
    }

    func selectRawKeys() {
        guard xiOpcode != nil else { return }
        rawKeys = true
        selectRaw()
    }

    /// Keyboards were plugged in or out: select the raw keys of those there now.
    func devicesChanged() {
        if rawKeys { selectRaw() }
    }

    /// Selects XI 2.2 touch events on the window, so every finger is tracked; core events stay for mice.
    private func selectTouch() {
        guard let opcode = XInput2.opcode(display) else { return }
        XInput2.select(display, window: window, [(XIAllMasterDevices,
                                                  [InputDecoding.touchBegin, InputDecoding.touchUpdate, InputDecoding.touchEnd])])
        xiOpcode = opcode
    }

    // MARK: - Drawing

    private func makeBackBuffer() {
        surfaces = nil
        for buffer in [pixmap, cleanPixmap] where buffer != 0 { XFreePixmap(display, buffer) }
        let depth = UInt32(XDefaultDepth(display, connection.defaultScreen))
        pixmap = XCreatePixmap(display, window, UInt32(frame.width), UInt32(frame.height), depth)
        cleanPixmap = XCreatePixmap(display, window, UInt32(frame.width), UInt32(frame.height), depth)
    }

    private func madeSurfaces() -> (front: Surface?, clean: Surface?) {
        if let surfaces { return surfaces }
        let made = (front: surface(on: pixmap), clean: surface(on: cleanPixmap))
        surfaces = made
        return made
    }

    private func surface(on buffer: Pixmap) -> Surface? {
        let screen = connection.defaultScreen
        guard let cairoSurface = cairo_xlib_surface_create(display, buffer, XDefaultVisual(display, screen),
                                                           Int32(frame.width), Int32(frame.height)),
              let made = try? Surface(adopting: cairoSurface, width: frame.width, height: frame.height) else { return nil }
        // A key's image is a pixmap of the window's depth: the server copies it. A balloon's has an alpha
        // channel: the server blends it over the buffer with XRender.
        let (display, gc, depth, visual) = (display, gc, XDefaultDepth(display, screen), XDefaultVisual(display, screen))
        made.imagePlacer = { image, area, clip in
            guard cairo_surface_get_type(image) == CAIRO_SURFACE_TYPE_XLIB else { return false }
            let source = cairo_xlib_surface_get_drawable(image)
            let (fromX, fromY) = (Int32(clip.x - area.x), Int32(clip.y - area.y))
            switch cairo_xlib_surface_get_depth(image) {
            case depth:
                XCopyArea(display, source, buffer, gc, fromX, fromY, UInt32(clip.width), UInt32(clip.height),
                          Int32(clip.x), Int32(clip.y))
            case 32:
                guard let sourceFormat = XRenderFindStandardFormat(display, Int32(PictStandardARGB32)),
                      let bufferFormat = XRenderFindVisualFormat(display, visual) else { return false }
                let from = XRenderCreatePicture(display, source, sourceFormat, 0, nil)
                let to = XRenderCreatePicture(display, buffer, bufferFormat, 0, nil)
                XRenderComposite(display, PictOpOver, from, 0, to, fromX, fromY, 0, 0, Int32(clip.x), Int32(clip.y),
                                 UInt32(clip.width), UInt32(clip.height))
                XRenderFreePicture(display, from)
                XRenderFreePicture(display, to)
            default:
                return false
            }
            return true
        }
        return made
    }

    /// Copies areas of the popup-free keys into the back buffer.
    func restoreFromClean(_ areas: [Rect]) {
        for area in areas {
            XCopyArea(display, cleanPixmap, pixmap, gc, Int32(area.x), Int32(area.y), UInt32(area.width),
                      UInt32(area.height), Int32(area.x), Int32(area.y))
        }
    }

    /// Copies areas of the back buffer to the window.
    /// Waits for the server's first Expose of the window (once the window manager has mapped it) and
    /// shows the frame drawn, at most `limit` seconds: the frame is on screen before the rest of start-up
    /// runs, not after it. Other events stay queued for the loop. True when it was shown.
    func presentFirstExpose(limit: Double) -> Bool {
        let end = EventLoop.monotonicNow() + limit
        var event = XEvent()
        while XCheckTypedWindowEvent(display, window, Expose, &event) == 0 {
            let left = end - EventLoop.monotonicNow()
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(left * 1000) + 1)
        }
        present([Rect(x: 0, y: 0, width: frame.width, height: frame.height)])
        XFlush(display)
        return true
    }

    func present(_ areas: [Rect]) {
        for area in areas {
            XCopyArea(display, pixmap, window, gc, Int32(area.x), Int32(area.y), UInt32(area.width),
                      UInt32(area.height), Int32(area.x), Int32(area.y))
        }
    }

    /// Moves and resizes the window; the back buffer follows.
    public func setFrame(_ newFrame: Rect) {
        let resized = newFrame.width != frame.width || newFrame.height != frame.height
        frame = newFrame
        setSizeHints()
        XMoveResizeWindow(display, window, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height))
        if resized { makeBackBuffer() }
    }

    public func map() {
        XMapRaised(display, window)
        // Without a window manager, nobody else places us.
        XMoveWindow(display, window, Int32(frame.x), Int32(frame.y))
        isMapped = true
    }

    public func unmap() {
        XUnmapWindow(display, window)
        isMapped = false
    }
}

extension DisplayConnection {
    /// Names a window of Keypane's: WM_CLASS (the instance given, class Keypane) and WM_NAME.
    func name(_ window: UInt, instance: String, title: String) {
        if let classHint = XAllocClassHint() {
            let name = strdup(instance)!, className = strdup("Keypane")!
            classHint.pointee.res_name = name
            classHint.pointee.res_class = className
            XSetClassHint(display, window, classHint)
            XFree(classHint)
            free(name)
            free(className)
        }
        XStoreName(display, window, title)
    }
}
