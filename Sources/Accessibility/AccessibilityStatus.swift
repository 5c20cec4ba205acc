internal import CDBus

/// The session's switch for application accessibility, org.a11y.Status IsEnabled on the session bus.
/// Qt applications and Firefox speak to the accessibility bus only while it is on (GTK always does), so a
/// keyboard that follows the focus turns it on, and back off at exit if it was off: the desktop is left as
/// it was found.
public final class AccessibilityStatus {
    /// How long one call may take, in milliseconds.
    static let timeout: Int32 = 250
    private let connection: OpaquePointer
    /// Whether Keypane turned it on, and so turns it off again.
    private var turnedOn = false

    /// The session bus; nil when it cannot be reached.
    public init?() {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let bus = dbus_bus_get(DBUS_BUS_SESSION, &error) else { return nil }
        dbus_connection_set_exit_on_disconnect(bus, 0)
        connection = bus
    }

    deinit { dbus_connection_unref(connection) }

    /// IsEnabled now; nil when the bus launcher does not answer.
    public var isEnabled: Bool? {
        guard let reply = call("Get", appending: { _ in }) else { return nil }
        defer { dbus_message_unref(reply) }
        var iterator = DBusMessageIter(), variant = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iterator) != 0,
              dbus_message_iter_get_arg_type(&iterator) == Self.type("v") else { return nil }
        dbus_message_iter_recurse(&iterator, &variant)
        guard dbus_message_iter_get_arg_type(&variant) == Self.type("b") else { return nil }
        var value: dbus_bool_t = 0
        dbus_message_iter_get_basic(&variant, &value)
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
            dbus_message_iter_open_container(&iterator, Self.type("v"), "b", &variant)
            dbus_message_iter_append_basic(&variant, Self.type("b"), &flag)
            dbus_message_iter_close_container(&iterator, &variant)
        }) else { return false }
        dbus_message_unref(reply)
        return true
    }

    /// Calls org.freedesktop.DBus.Properties.METHOD("org.a11y.Status", "IsEnabled", ...) on the bus
    /// launcher and waits for the reply, at most `timeout`.
    private func call(_ method: String, appending more: (inout DBusMessageIter) -> Void) -> OpaquePointer? {
        guard let message = dbus_message_new_method_call("org.a11y.Bus", "/org/a11y/bus",
                                                         "org.freedesktop.DBus.Properties", method) else { return nil }
        defer { dbus_message_unref(message) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for text in ["org.a11y.Status", "IsEnabled"] {
            text.withCString { pointer in
                var string: UnsafePointer<CChar>? = pointer
                _ = dbus_message_iter_append_basic(&iterator, Self.type("s"), &string)
            }
        }
        more(&iterator)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        return dbus_connection_send_with_reply_and_block(connection, message, Self.timeout, &error)
    }

    /// A D-Bus type code ('s', 'b', 'v').
    private static func type(_ code: Character) -> Int32 { Int32(code.asciiValue!) }
}
