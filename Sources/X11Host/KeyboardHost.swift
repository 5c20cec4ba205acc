internal import CX11
internal import CXInput2
internal import CXRandR
public import Injector
public import KeyboardModel
public import Render
public import Sound
public import Typing
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

/// Runs the keyboard: the window, the event loop, and the path from a tap to a keystroke.
///
/// The loop waits on the X connection and a signalfd, with a timeout only when the typing engine has a
/// timer pending (long press, delete repeat): an idle keyboard sleeps without waking.
public final class KeyboardHost {
    public struct Options: Sendable {
        /// The monitor to dock on, by RandR name; nil for the primary.
        public var monitor: String?
        /// A fixed height in pixels, or nil for the policy in `DockPlacement.height`.
        public var height: Int?
        /// A height as a share of the monitor's height (0...1), used when `height` is nil.
        public var heightFraction: Double?
        /// Start undocked: a floating keyboard the user drags by its handle.
        public var floating: Bool
        /// Where the floating keyboard's position is kept between runs; nil keeps nothing.
        public var positionFile: PositionFile?
        public init(monitor: String? = nil, height: Int? = nil, heightFraction: Double? = nil, floating: Bool = false,
                    positionFile: PositionFile? = nil) {
            self.monitor = monitor
            self.height = height
            self.heightFraction = heightFraction
            self.floating = floating
            self.positionFile = positionFile
        }
    }

    let connection: DisplayConnection
    public private(set) var engine: TypingEngine
    let injector: Injector
    let renderer: KeyboardRenderer
    let options: Options
    public let window: KeyboardWindow
    private var display: OpaquePointer { connection.display }
    private let signalDescriptor: Int32
    private var randrEventBase: Int32 = 0
    private var xkbEventBase: Int32 = 0
    private var running = true
    private let commandAtom: UInt
    private let instanceAtom: UInt
    /// The input click; nil when sound is off.
    let sound: InputClick?

    /// Messages a second `keypane` (or a script) sends to the running one, as ClientMessage data.
    public enum Command: Int, Sendable { case show = 1, hide = 2, toggle = 3 }

    /// The selection a running keyboard owns on a screen, so a second start can find it.
    public static func instanceSelection(screen: Int32) -> String { "_KEYPANE_S\(screen)" }

    /// Asks a running keyboard on this display to do something. True when one was found.
    public static func sendToRunning(_ command: Command, connection: DisplayConnection) -> Bool {
        let display = connection.display
        let owner = XGetSelectionOwner(display, connection.atom(instanceSelection(screen: connection.defaultScreen)))
        guard owner != 0 else { return false }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = owner
        event.xclient.message_type = connection.atom("_KEYPANE_COMMAND")
        event.xclient.format = 32
        event.xclient.data.l.0 = command.rawValue
        XSendEvent(display, owner, 0, 0, &event)
        XSync(display, 0)
        return true
    }

    public init(connection: DisplayConnection, engine: TypingEngine, injector: Injector, theme: Theme,
                options: Options, sound: InputClick? = nil) {
        self.connection = connection
        self.sound = sound
        self.engine = engine
        self.injector = injector
        self.renderer = KeyboardRenderer(theme: theme)
        self.options = options
        commandAtom = connection.atom("_KEYPANE_COMMAND")
        settingsSelection = connection.atom("_XSETTINGS_S\(connection.defaultScreen)")
        settingsAtom = connection.atom("_XSETTINGS_SETTINGS")
        instanceAtom = connection.atom(Self.instanceSelection(screen: connection.defaultScreen))

        // Signals arrive through a pipe the loop polls, never in the middle of an X call.
        signalDescriptor = SignalPipe.install([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])

        floating = options.floating
        do { floatingPosition = try options.positionFile?.load() } catch {
            warn("\(error); the floating keyboard starts at the bottom of the screen")
        }
        monitors = connection.monitors()
        let placement = Self.placement(connection: connection, monitors: monitors, options: options,
                                       rows: engine.geometry.rows, floating: floating, position: floatingPosition)
        window = KeyboardWindow(connection: connection, frame: placement.frame)
        window.setStrut(placement.strut)
        selectScreenAndKeymapEvents()
        XSetSelectionOwner(display, instanceAtom, window.window, UInt(CurrentTime))
        let size = keyboardSize(of: placement.frame)
        if engine.size != size { try? self.engine.resize(width: size.width, height: size.height) }
    }

    /// The window's frame and struts: docked at the bottom of the monitor, or floating (no struts).
    static func placement(connection: DisplayConnection, monitors: [Monitor], options: Options, rows: Int,
                          floating: Bool, position: (x: Int, y: Int)?) -> (frame: Rect, strut: [Int]) {
        let chosen = DockPlacement.choose(monitors, named: options.monitor)
        if floating {
            let size = FloatingPlacement.size(on: chosen.rect, rows: rows)
            let frame = FloatingPlacement.frame(at: position, size: size, monitors: monitors, fallback: chosen)
            return (frame, Array(repeating: 0, count: 12))
        }
        let monitor = chosen.rect
        var height = options.height ?? options.heightFraction.map { Int(Double(monitor.height) * $0) }
            ?? DockPlacement.height(for: monitor, rows: rows)
        height = min(max(height, 60), monitor.height)
        let frame = DockPlacement.frame(on: monitor, height: height)
        return (frame, DockPlacement.strut(frame: frame, rootHeight: connection.rootSize.height))
    }

    // MARK: - Floating

    /// Docked at the bottom, or floating where the user dragged it.
    public private(set) var floating: Bool
    /// Where the floating keyboard was last put, kept between runs.
    private var floatingPosition: (x: Int, y: Int)?
    /// The monitors, as RandR last reported them.
    private var monitors: [Monitor]
    /// A drag of the floating keyboard's handle: which touch, where it began (root pixels), and where the
    /// window was then.
    private var drag: (touch: Int, start: (x: Int, y: Int), origin: (x: Int, y: Int))?
    /// Whether saving the position has failed once already: said once, not on every drag.
    private var positionSaveFailed = false

    /// The keys' area of a window frame: all of it docked, all but the handle floating.
    private func keyboardSize(of frame: Rect) -> (width: Int, height: Int) {
        (frame.width, frame.height - (floating ? FloatingPlacement.handleHeight : 0))
    }

    /// The handle strip along the bottom of the floating keyboard, in window pixels.
    private var handleRect: Rect? {
        guard floating else { return nil }
        let f = window.frame
        return Rect(x: 0, y: f.height - FloatingPlacement.handleHeight, width: f.width, height: FloatingPlacement.handleHeight)
    }

    /// Starts a drag when a touch or click lands on the handle. True when it did.
    private func beginDrag(touch: Int, y: Double, root: (x: Int, y: Int)) -> Bool {
        guard let handle = handleRect, drag == nil, Int(y) >= handle.y else { return false }
        drag = (touch, root, (window.frame.x, window.frame.y))
        return true
    }

    /// Follows the dragging finger, keeping the keyboard wholly on a monitor.
    private func continueDrag(root: (x: Int, y: Int)) {
        guard let drag else { return }
        let wanted = (x: drag.origin.x + root.x - drag.start.x, y: drag.origin.y + root.y - drag.start.y)
        let chosen = DockPlacement.choose(monitors, named: options.monitor)
        let frame = FloatingPlacement.frame(at: wanted, size: (window.frame.width, window.frame.height),
                                            monitors: monitors, fallback: chosen)
        if frame != window.frame { window.setFrame(frame) }
    }

    /// Ends a drag and keeps the position for the next run.
    private func endDrag() {
        drag = nil
        floatingPosition = (window.frame.x, window.frame.y)
        guard let file = options.positionFile, let position = floatingPosition else { return }
        do { try file.save(x: position.x, y: position.y) } catch {
            if !positionSaveFailed { warn("\(error); the position is kept only while running") }
            positionSaveFailed = true
        }
    }

    /// Undocks, or docks again.
    private func toggleFloating() {
        floating.toggle()
        drag = nil
        place()
    }

    private func selectScreenAndKeymapEvents() {
        var error: Int32 = 0
        if XRRQueryExtension(display, &randrEventBase, &error) != 0 {
            XRRSelectInput(display, connection.rootWindow,
                           Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        }
        XSelectInput(display, connection.rootWindow, StructureNotifyMask | PropertyChangeMask)
        activeWindow = readActiveWindow()
        var opcode: Int32 = 0, major = Int32(XkbMajorVersion), minor = Int32(XkbMinorVersion)
        if XkbQueryExtension(display, &opcode, &xkbEventBase, &error, &major, &minor) != 0 {
            let group = UInt(XkbGroupStateMask)
            XkbSelectEventDetails(display, UInt32(XkbUseCoreKbd), UInt32(XkbStateNotify), group, group)
            XkbSelectEvents(display, UInt32(XkbUseCoreKbd), UInt32(XkbNewKeyboardNotifyMask),
                            UInt32(XkbNewKeyboardNotifyMask))
        }
    }

    // MARK: - Loop

    /// Shows the keyboard and runs until a signal or the window is closed. Returns the exit status.
    public func run() -> Int32 {
        show()
        // The keymap and the desktop's settings are read once the first frame is out, not on the first tap.
        injector.prepare()
        if sound != nil { watchSettings() }
        do { control = try ControlServer(path: ControlSocket.path(display: connection.name)) } catch {
            warn("\(error); keypane show, hide, set and type cannot reach this keyboard")
        }
        while running {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                handle(&event)
            }
            if rawClick { checkClick() }
            // Pixels once per batch of events: a press and release read together draw only their outcome.
            drawPending()
            // A keymap or group change is read now, while nobody waits, not on the next keystroke.
            injector.prepare()
            XFlush(display)
            guard running else { break }
            // Drawing can wait for a reply, and Xlib queues the events that arrive meanwhile: they are
            // read already, so the socket would not wake poll for them.
            if XEventsQueued(display, QueuedAlready) > 0 { continue }
            var timeout: Int32 = -1
            if let deadline = [engine.nextDeadline, screenDeadline, outsidePress, control?.deadline].compactMap({ $0 }).min() {
                timeout = Int32(max(0, ((deadline - Self.now()) * 1000).rounded(.up)))
            }
            var fds = ([connection.fileDescriptor, signalDescriptor] + (control?.descriptors ?? []))
                .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { readSignals() }
            if let control, fds.dropFirst(2).contains(where: { $0.revents != 0 }) || (control.deadline ?? .infinity) <= Self.now() {
                control.service(now: Self.now(), answer)
            }
            if let deadline = engine.nextDeadline, deadline <= Self.now() { apply(engine.tick(at: Self.now())) }
            if let deadline = screenDeadline, deadline <= Self.now() {
                screenDeadline = nil
                screenChanged()
            }
            if let deadline = outsidePress, deadline <= Self.now() {
                outsidePress = nil
                apply(engine.resetContext())
            }
        }
        shutdown()
        return 0
    }

    /// Gives back what Keypane borrowed from the X server: spare keycodes, the window.
    public func shutdown() {
        control?.close()
        control = nil
        injector.restore()
        window.unmap()
        XSync(display, 0)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private func readSignals() {
        var signal: UInt8 = 0
        while read(signalDescriptor, &signal, 1) == 1 {
            switch Int32(signal) {
            case SIGUSR1: hide()
            case SIGUSR2: show()
            default: running = false
            }
        }
    }

    private func handle(_ event: inout XEvent) {
        let type = event.type
        switch type {
        case Expose:
            let e = event.xexpose
            window.present([Rect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height))])
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            // The raw event of this click was the keyboard's own.
            if type == ButtonPress { rawClick = false }
            if e.button == 1 {
                if type == ButtonPress, beginDrag(touch: InputEvent.pointer, y: Double(e.y),
                                                   root: (Int(e.x_root), Int(e.y_root))) { return }
                if type == ButtonRelease, drag?.touch == InputEvent.pointer {
                    endDrag()
                    return
                }
            }
            let kind: InputDecoding.CoreKind = type == ButtonPress ? .buttonPress : .buttonRelease
            if let input = InputDecoding.pointer(kind, button: e.button, state: e.state, x: e.x, y: e.y, time: Self.now()) {
                apply(engine.handle(input))
            }
        case MotionNotify:
            // Only the latest position matters.
            while XCheckTypedWindowEvent(display, window.window, MotionNotify, &event) != 0 {}
            let e = event.xmotion
            if drag?.touch == InputEvent.pointer {
                continueDrag(root: (Int(e.x_root), Int(e.y_root)))
                return
            }
            if let input = InputDecoding.pointer(.motion, button: 0, state: e.state, x: e.x, y: e.y, time: Self.now()) {
                apply(engine.handle(input))
            }
        case GenericEvent:
            handleGeneric(&event)
        case MappingNotify:
            let first = Int(event.xmapping.first_keycode), count = Int(event.xmapping.count)
            if event.xmapping.request == MappingKeyboard || event.xmapping.request == MappingModifier {
                XRefreshKeyboardMapping(&event.xmapping)
                injector.keymapChanged(first: event.xmapping.request == MappingModifier ? 0 : first,
                                       count: event.xmapping.request == MappingModifier ? 256 : count)
            }
        case PropertyNotify where event.xproperty.window == connection.rootWindow
            && event.xproperty.atom == connection.atom("_NET_ACTIVE_WINDOW"):
            let active = readActiveWindow()
            if active != activeWindow {
                activeWindow = active
                apply(engine.resetContext())
            }
        case ClientMessage:
            if event.xclient.message_type == commandAtom {
                switch Command(rawValue: event.xclient.data.l.0) {
                case .show: show()
                case .hide: hide()
                case .toggle: window.isMapped ? hide() : show()
                case nil: break
                }
            } else if event.xclient.window == connection.rootWindow
                        && event.xclient.message_type == connection.atom("MANAGER") {
                // A settings daemon (re)started.
                if UInt(event.xclient.data.l.1) == settingsSelection && sound != nil { watchSettings() }
            } else if UInt(event.xclient.data.l.0) == connection.atom("WM_DELETE_WINDOW") {
                running = false
            }
        case PropertyNotify where event.xproperty.window == settingsOwner && event.xproperty.atom == settingsAtom:
            readSettings()
        case DestroyNotify where event.xdestroywindow.window == settingsOwner:
            settingsOwner = 0
            readSettings()
        case ConfigureNotify where event.xconfigure.window == connection.rootWindow:
            XRRUpdateConfiguration(&event)
            screenChanging()
        default:
            if randrEventBase != 0 && type == randrEventBase + RRScreenChangeNotify {
                XRRUpdateConfiguration(&event)
                screenChanging()
            } else if randrEventBase != 0 && type == randrEventBase + RRNotify {
                screenChanging()
            } else if xkbEventBase != 0 && type == xkbEventBase {
                injector.groupChanged()
            }
        }
    }

    private func handleGeneric(_ event: inout XEvent) {
        guard let opcode = window.xiOpcode, event.xcookie.extension == opcode,
              XGetEventData(display, &event.xcookie) != 0 else { return }
        defer { XFreeEventData(display, &event.xcookie) }
        let evtype = event.xcookie.evtype
        if evtype == XI_RawButtonPress || evtype == XI_RawTouchBegin {
            let raw = event.xcookie.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            if evtype == XI_RawTouchBegin {
                touchedSomewhere()
            } else if (1...3).contains(raw.detail) {
                // A click (wheel and side buttons only scroll): where, is asked at the end of the batch.
                rawClick = true
            }
            return
        }
        let device = event.xcookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
        if device.evtype == XI_TouchBegin && device.event == window.window { pressedOnKeyboard() }
        guard device.event == window.window else { return }
        let root = (Int(device.root_x), Int(device.root_y))
        switch device.evtype {
        case XI_TouchBegin where beginDrag(touch: Int(device.detail), y: device.event_y, root: root):
            return
        case XI_TouchUpdate where drag?.touch == Int(device.detail):
            continueDrag(root: root)
            return
        case XI_TouchEnd where drag?.touch == Int(device.detail):
            endDrag()
            return
        default: break
        }
        guard
              let input = InputDecoding.touch(evtype: device.evtype, detail: device.detail, flags: device.flags,
                                              x: device.event_x, y: device.event_y, time: Self.now()) else { return }
        apply(engine.handle(input))
    }

    // MARK: - What was typed

    /// The window the window manager last said was active.
    private var activeWindow: UInt = 0
    /// When a touch seen anywhere counts as outside the keyboard, unless one on the keyboard comes first.
    private var outsidePress: Double?
    /// When the keyboard was last touched.
    private var lastKeyboardPress = -Double.infinity
    /// How far apart the raw touch and the keyboard's own touch of one tap may arrive.
    static let samePress = 0.03

    private func readActiveWindow() -> UInt {
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, connection.rootWindow, connection.atom("_NET_ACTIVE_WINDOW"), 0, 1, 0,
                                 UInt(XA_WINDOW), &type, &format, &count, &after, &data) == Success,
              let data else { return 0 }
        defer { XFree(data) }
        return count == 1 ? data.withMemoryRebound(to: UInt.self, capacity: 1) { $0.pointee } : 0
    }

    /// A click seen anywhere (a raw event) whose own press on the keyboard has not come in the same batch.
    private var rawClick = false

    /// A click with no press on the keyboard in its batch: if the pointer is elsewhere, the caret may have
    /// moved. The round trip is made only then, and after the events that came with the click.
    private func checkClick() {
        rawClick = false
        if !pointerIsOnKeyboard() { apply(engine.resetContext()) }
    }

    /// Whether the pointer is over the keyboard's window now.
    private func pointerIsOnKeyboard() -> Bool {
        var root: UInt = 0, child: UInt = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(display, window.window, &root, &child, &rootX, &rootY, &x, &y, &mask) != 0 else { return false }
        return x >= 0 && y >= 0 && Int(x) < window.frame.width && Int(y) < window.frame.height
    }

    /// A touch on the keyboard: the raw touch of the same tap is not one outside.
    private func pressedOnKeyboard() {
        lastKeyboardPress = Self.now()
        outsidePress = nil
    }

    /// A touch anywhere (a raw event), which carries no screen position: outside the keyboard unless the
    /// keyboard's own touch comes with it.
    private func touchedSomewhere() {
        guard Self.now() - lastKeyboardPress > Self.samePress else { return }
        outsidePress = Self.now() + Self.samePress
    }

    // MARK: - Control

    /// The control socket, or nil when it could not be made.
    private var control: ControlServer?

    /// Does what a `keypane` command asks, and says what to answer.
    private func answer(_ request: ControlRequest) -> Result<String, ControlError> {
        switch request {
        case .show: show()
        case .hide: hide()
        case .toggle: window.isMapped ? hide() : show()
        case .status:
            return .success("""
                visible: \(window.isMapped ? "yes" : "no")
                type: \(engine.enabled[engine.current])
                layer: \(engine.layer)
                return-key: \(engine.options.returnKey.rawValue)
                keyboards: \(engine.enabled.joined(separator: ","))
                placement: \(floating ? "floating" : "docked")

                """)
        case .set(let type, let returnKeyName):
            if let type, engine.library[type] == nil {
                let known = engine.library.layouts.keys.sorted().joined(separator: ", ")
                return .failure(ControlError("unknown keyboard type '\(type)': expected one of \(known)"))
            }
            var returnKey = engine.options.returnKey
            if let returnKeyName {
                guard let named = ReturnKeyType(rawValue: returnKeyName) else {
                    return .failure(ControlError("unknown return key '\(returnKeyName)': expected one of \(ReturnKeyType.allNames)"))
                }
                returnKey = named
            }
            _ = engine.cancelTouches()
            engine.show(layout: type ?? engine.enabled[engine.current], returnKey: returnKey)
            pending.all = true
        case .type(let text):
            injector.perform(.text(text))
            XFlush(display)
        }
        return .success("")
    }

    // MARK: - The desktop's settings

    /// The XSETTINGS selection of this screen, and the property its owner keeps the settings in.
    private let settingsSelection: UInt
    private let settingsAtom: UInt
    /// The settings daemon's window, or 0 when there is none.
    private var settingsOwner: UInt = 0
    /// Whether the desktop allows event sounds, the input click among them (Net/EnableEventSounds).
    public private(set) var eventSoundsAllowed = true

    /// Finds the settings daemon, follows its changes, and reads its settings.
    private func watchSettings() {
        settingsOwner = XGetSelectionOwner(display, settingsSelection)
        if settingsOwner != 0 { XSelectInput(display, settingsOwner, PropertyChangeMask | StructureNotifyMask) }
        readSettings()
    }

    private func readSettings() {
        var allowed = true
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        if settingsOwner != 0,
           XGetWindowProperty(display, settingsOwner, settingsAtom, 0, 1 << 16, 0, settingsAtom, &type, &format,
                              &count, &after, &data) == Success, let data {
            defer { XFree(data) }
            if format == 8, let settings = XSettings.parse(Array(UnsafeBufferPointer(start: data, count: Int(count)))) {
                allowed = XSettings.allowsEventSounds(settings)
            }
        }
        eventSoundsAllowed = allowed
    }

    // MARK: - Acting

    /// Types at once, and leaves the drawing for the end of the batch: the keystroke never waits for pixels.
    private func apply(_ update: Update) {
        var typed = false
        for action in update.actions {
            switch action {
            case .text, .keysym:
                injector.perform(action)
                typed = true
            case .nextKeyboard:
                engine.select(keyboard: (engine.current + 1) % engine.enabled.count)
                pending.all = true
            case .selectKeyboard(let index):
                engine.select(keyboard: index)
                pending.all = true
            case .dismiss: hide()
            case .toggleFloating: toggleFloating()
            }
        }
        if typed { XFlush(display) }
        if let click = update.click, eventSoundsAllowed { sound?.play(click) }
        pending.all = pending.all || update.redrawAll
        pending.keys.formUnion(update.changedKeys)
        pending.popups = pending.popups || update.popupsChanged
    }

    /// What changed on screen since the last drawing.
    private var pending = (all: false, keys: Set<Int>(), popups: false)

    /// Draws what changed since the last call.
    private func drawPending() {
        defer { pending = (false, [], false) }
        if pending.all {
            redrawAll()
        } else if !pending.keys.isEmpty || pending.popups {
            let keyAreas = pending.keys.filter { $0 < engine.geometry.keys.count }
                .map { KeyboardRenderer.keyArea(engine.geometry.keys[$0].rect) }
            var areas = keyAreas
            if pending.popups {
                let now = popupAreas()
                areas += drawnPopupAreas + now
                drawnPopupAreas = now
            }
            draw(keys: keyAreas, areas: areas)
        }
    }

    /// Where popups were last drawn, to clear them when they close.
    private var drawnPopupAreas: [Rect] = []

    private func popupAreas() -> [Rect] {
        engine.state.popups.map { KeyboardRenderer.keyArea(PopupLayout.rect(for: $0, in: engine.geometry)) }
    }

    /// Draws the changed keys on the popup-free buffer, copies the dirty areas from it, puts the popups
    /// back on top, and shows the result.
    private func draw(keys keyAreas: [Rect], areas: [Rect]) {
        guard let clean = window.cleanSurface, let front = window.surface, !areas.isEmpty, window.isMapped else { return }
        if !keyAreas.isEmpty {
            try? renderer.redraw(keyAreas, of: engine.geometry, state: engine.state, on: clean, popups: false)
            if let handle = handleRect, keyAreas.contains(where: { $0.intersects(handle) }) {
                try? renderer.drawHandle(handle, on: clean)
            }
        }
        window.restoreFromClean(areas)
        try? renderer.drawPopups(over: areas, of: engine.geometry, state: engine.state, on: front)
        window.present(areas)
    }

    private func redrawAll() {
        drawnPopupAreas = popupAreas()
        let all = [Rect(x: 0, y: 0, width: window.frame.width, height: window.frame.height)]
        draw(keys: all, areas: all)
    }

    public func show() {
        guard !window.isMapped else { return }
        window.map()
        redrawAll()
        XFlush(display)
    }

    public func hide() {
        _ = engine.cancelTouches()
        window.unmap()
        XFlush(display)
    }

    /// How long the screen must stay quiet before the keyboard docks again: a change (xrandr, a rotation)
    /// comes as a burst of RandR and root-window events, and only the last state matters.
    static let screenSettle = 0.01

    /// When the keyboard docks again, if the screen is changing.
    private var screenDeadline: Double?

    private func screenChanging() {
        screenDeadline = Self.now() + Self.screenSettle
    }

    /// The screen changed: dock again on the right monitor (the named one, else the primary, else the
    /// first) at the right size. Layer, shift and keyboard stay; touches in progress are dropped, as the
    /// keys under them moved.
    private func screenChanged() {
        monitors = connection.monitors()
        drag = nil
        place()
    }

    /// Puts the window where it belongs now, docked or floating, at its size, and draws it.
    private func place() {
        let placement = Self.placement(connection: connection, monitors: monitors, options: options,
                                       rows: engine.geometry.rows, floating: floating, position: floatingPosition)
        window.setStrut(placement.strut)
        let size = keyboardSize(of: placement.frame)
        guard placement.frame != window.frame || engine.size != size else { return }
        _ = engine.cancelTouches()
        window.setFrame(placement.frame)
        do { try engine.resize(width: size.width, height: size.height) } catch {
            warn("cannot lay the keyboard out at \(size.width)x\(size.height): \(error)")
        }
        redrawAll()
    }
}

extension KeyboardGeometry {
    /// How many rows of keys.
    var rows: Int { Set(keys.map(\.rect.y)).count }
}

/// A problem the keyboard lives through, said on standard error as one line; safe from any thread.
public func warn(_ message: String) {
    let line = Array("keypane: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
