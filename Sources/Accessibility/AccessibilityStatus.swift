internal import CAtspi

/// The session's switch for application accessibility, org.a11y.Status IsEnabled on the session bus.
/// Qt applications and Firefox speak to the accessibility bus only while it is on (GTK always does), so a
/// keyboard that follows the focus turns it on, and back off at exit if it was off: the desktop is left as
/// it was found.
public final class AccessibilityStatus {
    /// How long one call may take, in milliseconds.
    static let timeout: Int32 = 250
    private let connection: OpaquePointer
    private let lib: AccessibilityLibraries
    /// Whether Keypane turned it on, and so turns it off again.
    private var turnedOn = false

    /// The session bus; nil when it cannot be reached (or libdbus cannot be loaded).
    public init?() {
        guard let lib = try? AccessibilityLibraries.shared() else { return nil }
        self.lib = lib
        var error = DBusError()
        lib.errorInit(&error)
        defer { lib.errorFree(&error) }
        guard let bus = lib.busGet(DBUS_BUS_SESSION, &error) else { return nil }
        lib.setExitOnDisconnect(bus, 0)
        connection = bus
    }

    deinit { lib.connectionUnref(connection) }

    /// IsEnabled now; nil when the bus launcher does not answer.
    public var isEnabled: Bool? {
        guard let reply = call("Get", appending: { _ in }) else { return nil }
        defer { lib.messageUnref(reply) }
        var iterator = DBusMessageIter(), variant = DBusMessageIter()
        guard lib.iterInit(reply, &iterator) != 0,
              lib.iterArgType(&iterator) == Self.type("v") else { return nil }
        lib.iterRecurse(&iterator, &variant)
        guard lib.iterArgType(&variant) == Self.type("b") else { return nil }
        var value: dbus_bool_t = 0
        lib.iterBasic(&variant, &value)
        return value != 0
    }

    /// Turns it on if it is off. True when it is on now.
    @discardableResult
    public func enable() -> Bool {
        guard let enabled = isEnabled else { return false }
        if enabled { return true }
        turnedOn = set(true)
        return turnedOn
    }

    /// Turns it off again if Keypane turned it on.
    public func restore() {
        if turnedOn { _ = set(false) }
        turnedOn = false
    }

    private func set(_ value: Bool) -> Bool {
        guard let reply = call("Set", appending: { iterator in
            var variant = DBusMessageIter()
            var flag: dbus_bool_t = value ? 1 : 0
            _ = lib.iterOpenContainer(&iterator, Self.type("v"), "b", &variant)
            _ = lib.iterAppendBasic(&variant, Self.type("b"), &flag)
            _ = lib.iterCloseContainer(&iterator, &variant)
        }) else { return false }
        lib.messageUnref(reply)
        return true
    }

    /// Calls org.freedesktop.DBus.Properties.METHOD("org.a11y.Status", "IsEnabled", ...) on the bus
    /// launcher and waits for the reply, at most `timeout`.
    private func call(_ method: String, appending more: (inout DBusMessageIter) -> Void) -> OpaquePointer? {
        guard let message = lib.newMethodCall("org.a11y.Bus", "/org/a11y/bus",
                                                         "org.freedesktop.DBus.Properties", method) else { return nil }
        defer { lib.messageUnref(message) }
        var iterator = DBusMessageIter()
        lib.iterInitAppend(message, &iterator)
        for text in ["org.a11y.Status", "IsEnabled"] {
            text.withCString { pointer in
                var string: UnsafePointer<CChar>? = pointer
                _ = lib.iterAppendBasic(&iterator, Self.type("s"), &string)
            }
        }
        more(&iterator)
        var error = DBusError()
        lib.errorInit(&error)
        defer { lib.errorFree(&error) }
        return lib.sendWithReplyAndBlock(connection, message, Self.timeout, &error)
    }

    /// A D-Bus type code ('s', 'b', 'v').
    private static func type(_ code: Character) -> Int32 { Int32(code.asciiValue!) }
}
