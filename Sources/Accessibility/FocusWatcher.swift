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
    private static let events = ["object:state-changed:focused", "object:text-caret-moved"]

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
        if let listener {
            for name in Self.events { _ = lib.listenerDeregister(listener, name, nil) }
            g_object_unref(UnsafeMutableRawPointer(listener))
        }
    }

    private func received(_ event: AtspiEvent) {
        guard let source = event.source else { return }
        if String(cString: event.type).hasPrefix("object:text-caret-moved") {
            if canRead && source == field { caretMoved(Int(event.detail1)) }
            return
        }
        // Gaining the focus only: losing it is followed by another object gaining it.
        guard event.detail1 == 1, let field = Self.describe(source, lib) else { return }
        self.field = field.takesText ? source : nil
        canRead = field.mayBeRead && Self.hasText(source, lib)
        focused(field)
    }

    /// Where the focused field is on the screen; nil without an answer.
    public func fieldFrame() -> Rect? {
        guard let field, let component = lib.componentInterface(field) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(component)) }
        var error: UnsafeMutablePointer<GError>?
        guard let extents = lib.componentExtents(component, ATSPI_COORD_TYPE_SCREEN, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_free(extents) }
        let rect = extents.pointee
        return rect.width > 0 && rect.height > 0
            ? Rect(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height)) : nil
    }

    /// Asks the application to scroll the focused field's top-left corner to a point of the screen (as far
    /// as its page or view can scroll). True when it says it did.
    public func scrollField(to point: (x: Int, y: Int)) -> Bool {
        guard let field, let component = lib.componentInterface(field) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(component)) }
        var error: UnsafeMutablePointer<GError>?
        let done = lib.componentScrollToPoint(component, ATSPI_COORD_TYPE_SCREEN, gint(point.x), gint(point.y), &error)
        if let error { g_error_free(error) }
        return done != 0
    }

    private static func hasText(_ object: OpaquePointer, _ lib: AccessibilityLibraries) -> Bool {
        guard let text = lib.textInterface(object) else { return false }
        g_object_unref(UnsafeMutableRawPointer(text))
        return true
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
        caret.send([.string("org.a11y.atspi.Text"), .string("CaretOffset")], timeout: Self.queryTimeout) { reply in
            guard let offset = reply?.int32, offset >= 0 else { return done(nil) }
            let text = BusCall(lib: lib, destination: destination, path: objectPath,
                               interface: "org.a11y.atspi.Text", method: "GetText")
            text.send([.int32(max(0, offset - Self.contextLength)), .int32(offset)], timeout: Self.queryTimeout) { reply in
                guard let before = reply?.string else { return done(nil) }
                done((before, Int(offset)))
            }
        }
    }

    /// The field as its role, states and attributes say; nil when the application did not answer in time
    /// (then the keyboard stays as it is, rather than hiding from a field it could not ask about).
    static func describe(_ object: OpaquePointer, _ lib: AccessibilityLibraries) -> TextField? {
        var error: UnsafeMutablePointer<GError>?
        let role = lib.role(object, &error)
        if let error {
            g_error_free(error)
            return nil
        }
        var field = TextField(editable: false)
        let base = UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiObject.self).pointee
        if let application = base.app?.pointee.bus_name, let path = base.path {
            field.id = String(cString: application) + String(cString: path)
        }
        switch role {
        case ATSPI_ROLE_PASSWORD_TEXT: field.role = .password
        case ATSPI_ROLE_TERMINAL: field.role = .terminal
        case ATSPI_ROLE_SPIN_BUTTON: field.role = .spinButton
        default: field.role = .other
        }
        // An object with the focus has states (FOCUSED among them): none means no answer.
        guard let states = lib.stateSet(object) else { return nil }
        do {
            defer { g_object_unref(UnsafeMutableRawPointer(states)) }
            guard lib.stateSetIsEmpty(states) == 0 else { return nil }
            field.editable = lib.stateSetContains(states, ATSPI_STATE_EDITABLE) != 0
            field.readOnly = lib.stateSetContains(states, ATSPI_STATE_READ_ONLY) != 0
            field.multiLine = lib.stateSetContains(states, ATSPI_STATE_MULTI_LINE) != 0
        }
        if role == ATSPI_ROLE_SPIN_BUTTON, let value = lib.valueInterface(object) {
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            let step = lib.valueMinimumIncrement(value, &error)
            if let failed = error {
                g_error_free(failed)
                error = nil
            } else {
                field.step = step
            }
        }
        if let attributes = lib.attributes(object, &error) {
            defer { g_hash_table_unref(attributes) }
            if let value = g_hash_table_lookup(attributes, "text-input-type") {
                field.inputType = String(cString: value.assumingMemoryBound(to: CChar.self)).lowercased()
            }
        }
        if let error { g_error_free(error) }
        return field
    }
}

/// Why the accessibility bus cannot be used.
public struct AccessibilityError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
