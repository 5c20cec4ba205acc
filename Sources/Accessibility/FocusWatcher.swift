internal import EventLoop
internal import CAtspi
public import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// Follows the focus through the accessibility bus (AT-SPI 2), which GTK, Qt and the browsers speak: each
/// time an object gains the focus, says what it is, as a `TextField` (whether it takes text is its
/// `takesText`). The bus's messages arrive through GLib's main context, which `GLibContextSource` runs in
/// Keypane's loop; every query to an application is bounded by `queryTimeout`, so a hung application costs a
/// moment, never the keyboard.
public final class FocusWatcher {
    /// How long one question to an application may take, in milliseconds (the first to a starting one:
    /// `startupTimeout`). A browser's first answers take a few hundred milliseconds.
    public static let queryTimeout: Int32 = 500
    public static let startupTimeout: Int32 = 1500

    /// How much of the text before the caret is read, in characters.
    public static let contextLength: Int32 = 64

    private let lib: AccessibilityLibraries
    private let focused: (TextField) -> Void
    private let caretMoved: (Int) -> Void
    private var listener: OpaquePointer?
    /// The focused object, while it takes text.
    private var field: OpaquePointer? {
        didSet {
            if let field { g_object_ref(UnsafeMutableRawPointer(field)) }
            if let oldValue { g_object_unref(UnsafeMutableRawPointer(oldValue)) }
        }
    }
    /// Whether the focused field's text may be read (never a password's) and can be (the Text interface).
    public private(set) var canRead = false
    /// The caret's offset in the focused field, as its last event or read said; and the offset last asked
    /// of it (`moveCaret`), until it answers.
    private var caret: Int?
    private var caretAsked: Int?
    /// The selection the keyboard is making (`moveCaret(selecting:)`): where it began and where its moving
    /// end is, until the caret moves otherwise.
    private var selection: (anchor: Int, end: Int)?
    private static let events = ["object:state-changed:focused", "object:text-caret-moved"]
    /// The objects that announced the focus last, each with what it said it is and its process once
    /// asked: which of them has the focus.
    private var candidates = FocusCandidates<OpaquePointer, (field: TextField, hasText: Bool)>()

    /// Connects to the accessibility bus and listens for focus changes and caret moves; `focused` and
    /// `caretMoved` (in the focused field, when its text may be read; with the caret's new offset) are called
    /// in the loop.
    public init(focused: @escaping (TextField) -> Void, caretMoved: @escaping (Int) -> Void) throws(AccessibilityError) {
        self.focused = focused
        self.caretMoved = caretMoved
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else {
            throw AccessibilityError("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        lib = try AccessibilityLibraries.shared()
        let started = lib.atspiInit()
        guard started == 0 || started == 1 else { throw AccessibilityError("cannot reach the accessibility bus") }
        lib.setTimeout(Self.queryTimeout, Self.startupTimeout)
        let callback: AtspiEventListenerCB = { event, context in
            guard let event, let context else { return }
            let watcher = Unmanaged<FocusWatcher>.fromOpaque(context).takeUnretainedValue()
            defer { g_boxed_free(watcher.lib.eventGetType(), event) }
            watcher.received(event.pointee)
        }
        listener = lib.listenerNew(callback, Unmanaged.passUnretained(self).toOpaque(), nil)
        for name in Self.events {
            var error: UnsafeMutablePointer<GError>?
            guard lib.listenerRegister(listener, name, &error) != 0 else {
                let message = error.map { String(cString: $0.pointee.message) } ?? "no reason given"
                if let error { g_error_free(error) }
                throw AccessibilityError("cannot listen for \(name): \(message)")
            }
        }
    }

    deinit {
        field = nil
        for candidate in candidates.candidates { g_object_unref(UnsafeMutableRawPointer(candidate.object)) }
        if let listener {
            for name in Self.events { _ = lib.listenerDeregister(listener, name, nil) }
            g_object_unref(UnsafeMutableRawPointer(listener))
        }
    }

    private func received(_ event: AtspiEvent) {
        guard let source = event.source else { return }
        if String(cString: event.type).hasPrefix("object:text-caret-moved") {
            if canRead && source == field {
                caret = Int(event.detail1)
                caretMoved(Int(event.detail1))
            }
            return
        }
        if event.detail1 == 1 {
            gained(source)
        } else {
            lost(source)
        }
    }

    /// An object got the focus: it is asked what it is and which process it is of, and becomes the field
    /// once it answers, unless another object got the focus after it (`FocusCandidates` decides).
    private func gained(_ source: OpaquePointer) {
        // Kept while it may become the field: the event lets go of its source.
        g_object_ref(UnsafeMutableRawPointer(source))
        let (ticket, dropped) = candidates.gained(source, at: EventLoop.monotonicNow())
        if let dropped { g_object_unref(UnsafeMutableRawPointer(dropped)) }
        FieldDescription.read(source, lib, timeout: Self.queryTimeout) { [weak self] described in
            guard let self else { return }
            // Without an answer in time, the keyboard stays as it is.
            guard let described else { return }
            act(on: candidates.described(ticket, as: described))
        }
        askProcess(of: source) { [weak self] processID in
            guard let self else { return }
            act(on: candidates.learned(ticket, processID: processID))
        }
    }

    /// An object lost the focus.
    private func lost(_ source: OpaquePointer) {
        let (removed, candidate) = candidates.lost(source)
        if let removed { g_object_unref(UnsafeMutableRawPointer(removed)) }
        act(on: candidate)
    }

    /// The window manager made a window of process `processID` active (nil: the window does not say).
    public func activated(processID: Int?) {
        act(on: candidates.activated(processID: processID))
    }

    private func act(on candidate: FocusCandidates<OpaquePointer, (field: TextField, hasText: Bool)>.Candidate?) {
        guard let candidate, let (field, hasText) = candidate.description else { return }
        self.field = field.takesText ? candidate.object : nil
        canRead = field.mayBeRead && hasText
        caret = nil
        caretAsked = nil
        selection = nil
        focused(field)
    }

    /// Asks the bus which process `object`'s application is; `answer` gets nil when the bus cannot say.
    private func askProcess(of object: OpaquePointer, _ answer: @escaping (Int?) -> Void) {
        let base = UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiObject.self).pointee
        guard let application = base.app?.pointee.bus_name else { return answer(nil) }
        let call = BusCall(lib: lib, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                           interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID")
        call.send([.string(String(cString: application))], timeout: Self.queryTimeout) { reply in
            answer(reply?.uint32.map { Int($0) })
        }
    }

    /// Asks where the focused field is on the screen, and then, if `scroll` gives a point for it, asks the
    /// application to scroll the field's top-left corner there (as far as its page or view can scroll).
    /// Neither waits for the application.
    public func keepFieldInSight(_ scroll: @escaping (Rect) -> (x: Int, y: Int)?) {
        guard let field, let extents = BusCall(lib: lib, object: field, interface: "org.a11y.atspi.Component",
                                               method: "GetExtents") else { return }
        let lib = lib
        extents.send([.uint32(UInt32(ATSPI_COORD_TYPE_SCREEN))], timeout: Self.queryTimeout) { [weak self] reply in
            guard let self, self.field == field, let numbers = reply?.int32s, numbers.count == 4,
                  numbers[2] > 0, numbers[3] > 0 else { return }
            let frame = Rect(x: Int(numbers[0]), y: Int(numbers[1]), width: Int(numbers[2]), height: Int(numbers[3]))
            guard let target = scroll(frame),
                  let call = BusCall(lib: lib, object: field, interface: "org.a11y.atspi.Component", method: "ScrollToPoint")
            else { return }
            call.send([.uint32(UInt32(ATSPI_COORD_TYPE_SCREEN)), .int32(Int32(target.x)), .int32(Int32(target.y))],
                      timeout: Self.queryTimeout) { _ in }
        }
    }

    /// Reads the focused field's text before the caret (at most `contextLength` characters) and the caret's
    /// offset without waiting for the application: `done` gets them later, in the loop, or nil when the
    /// field may not be read, has no Text interface, or did not answer in time. A busy or stopped
    /// application never holds a keystroke up.
    public func readTextBeforeCaret(_ done: @escaping ((text: String, caret: Int)?) -> Void) {
        guard canRead, let field else {
            done(nil)
            return
        }
        let object = UnsafeMutableRawPointer(field).assumingMemoryBound(to: AtspiObject.self).pointee
        guard let application = object.app?.pointee.bus_name, let path = object.path else {
            done(nil)
            return
        }
        let destination = String(cString: application), objectPath = String(cString: path)
        let lib = lib
        let caret = BusCall(lib: lib, destination: destination, path: objectPath,
                            interface: "org.freedesktop.DBus.Properties", method: "Get")
        caret.send([.string("org.a11y.atspi.Text"), .string("CaretOffset")], timeout: Self.queryTimeout) { [weak self] reply in
            guard let offset = reply?.int32, offset >= 0 else { return done(nil) }
            let text = BusCall(lib: lib, destination: destination, path: objectPath,
                               interface: "org.a11y.atspi.Text", method: "GetText")
            text.send([.int32(max(0, offset - Self.contextLength)), .int32(offset)], timeout: Self.queryTimeout) { [weak self] reply in
                guard let before = reply?.string else { return done(nil) }
                if let self, self.field == field { self.caret = Int(offset) }
                done((before, Int(offset)))
            }
        }
    }
}

extension FocusWatcher {
    /// Moves the focused field's caret by `characters` through its Text interface (SetCaretOffset), from
    /// where it is known to be: exact, and without a key the application could take for something else.
    /// `selecting`, the selection's moving end goes instead, from where the first such move found the
    /// caret (AddSelection, then SetSelection; the field puts its caret at the moving end). False, and
    /// nothing asked, where the caret cannot be set so (not known yet, a password, no Text interface):
    /// arrow keys do it there. A move past the end stops at the end, which the field's caret event says.
    public func moveCaret(by characters: Int, selecting: Bool) -> Bool {
        guard canRead, let field, let from = selecting ? selection?.end ?? caretAsked ?? caret : caretAsked ?? caret
        else { return false }
        let to = max(0, from + characters)
        let call: BusCall?, arguments: [BusCall.Argument]
        if selecting, let made = selection {
            call = BusCall(lib: lib, object: field, interface: "org.a11y.atspi.Text", method: "SetSelection")
            arguments = [.int32(0), .int32(Int32(made.anchor)), .int32(Int32(to))]
        } else if selecting {
            call = BusCall(lib: lib, object: field, interface: "org.a11y.atspi.Text", method: "AddSelection")
            arguments = [.int32(Int32(min(from, to))), .int32(Int32(max(from, to)))]
        } else {
            call = BusCall(lib: lib, object: field, interface: "org.a11y.atspi.Text", method: "SetCaretOffset")
            arguments = [.int32(Int32(to))]
        }
        guard let call else { return false }
        selection = selecting ? (selection?.anchor ?? from, to) : nil
        caretAsked = to
        call.send(arguments, timeout: Self.queryTimeout) { [weak self] _ in
            if self?.caretAsked == to { self?.caretAsked = nil }
        }
        return true
    }

    /// The keyboard typed into the field: a selection it was making is over (the next starts afresh).
    public func endSelection() { selection = nil }
}

/// Why the accessibility bus cannot be used.
public struct AccessibilityError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
