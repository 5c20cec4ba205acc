internal import CAtspi

#if canImport(Glibc)
import Glibc
#endif

/// libatspi and libdbus, opened with dlopen when the keyboard first follows the focus, after its first
/// frame: the program is not linked with them (only their headers are used), so they and the libraries
/// under them (libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap, libgpg-error) cost nothing at
/// start-up, nor any memory when the focus is not followed.
///
/// Each function is looked up by name and called through a pointer of the type its header gives.
struct AccessibilityLibraries {
    typealias Failure = UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
    typealias Accessible = OpaquePointer?

    // libatspi
    let atspiInit: @convention(c) () -> Int32
    let setTimeout: @convention(c) (gint, gint) -> Void
    let eventGetType: @convention(c) () -> GType
    let listenerNew: @convention(c) (AtspiEventListenerCB?, gpointer?, GDestroyNotify?) -> OpaquePointer?
    let listenerRegister: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, Failure) -> gboolean
    let listenerDeregister: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, Failure) -> gboolean

    // libdbus
    let busGet: @convention(c) (DBusBusType, UnsafeMutablePointer<DBusError>?) -> OpaquePointer?
    let sendWithReplyAndBlock: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutablePointer<DBusError>?) -> OpaquePointer?
    let setExitOnDisconnect: @convention(c) (OpaquePointer?, dbus_bool_t) -> Void
    let connectionUnref: @convention(c) (OpaquePointer?) -> Void
    let errorInit: @convention(c) (UnsafeMutablePointer<DBusError>?) -> Void
    let errorFree: @convention(c) (UnsafeMutablePointer<DBusError>?) -> Void
    let newMethodCall: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
    let messageUnref: @convention(c) (OpaquePointer?) -> Void
    let iterInit: @convention(c) (OpaquePointer?, UnsafeMutablePointer<DBusMessageIter>?) -> dbus_bool_t
    let iterInitAppend: @convention(c) (OpaquePointer?, UnsafeMutablePointer<DBusMessageIter>?) -> Void
    let iterArgType: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?) -> Int32
    let iterBasic: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?, UnsafeMutableRawPointer?) -> Void
    let iterRecurse: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?, UnsafeMutablePointer<DBusMessageIter>?) -> Void
    let iterAppendBasic: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?, Int32, UnsafeRawPointer?) -> dbus_bool_t
    let iterOpenContainer: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?, Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<DBusMessageIter>?) -> dbus_bool_t
    let iterCloseContainer: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?, UnsafeMutablePointer<DBusMessageIter>?) -> dbus_bool_t
    let iterNext: @convention(c) (UnsafeMutablePointer<DBusMessageIter>?) -> dbus_bool_t
    let messageType: @convention(c) (OpaquePointer?) -> Int32
    let sendWithReply: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32) -> dbus_bool_t
    let pendingSetNotify: @convention(c) (OpaquePointer?, DBusPendingCallNotifyFunction?, UnsafeMutableRawPointer?, DBusFreeFunction?) -> dbus_bool_t
    let pendingStealReply: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let pendingUnref: @convention(c) (OpaquePointer?) -> Void
    let pendingCancel: @convention(c) (OpaquePointer?) -> Void
    /// libatspi's connection to the accessibility bus, which GLib's main context serves.
    let accessibilityBus: @convention(c) () -> OpaquePointer?

    /// The libraries, opened the first time; what went wrong when they cannot be.
    static func shared() throws(AccessibilityError) -> AccessibilityLibraries {
        switch loaded {
        case .success(let libraries): return libraries
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<AccessibilityLibraries, AccessibilityError> = {
        do throws(AccessibilityError) { return .success(try AccessibilityLibraries()) } catch { return .failure(error) }
    }()

    private init() throws(AccessibilityError) {
        // libatspi brings libdbus with it; the second dlopen finds it loaded.
        let atspi = try Self.open("libatspi.so.0"), dbus = try Self.open("libdbus-1.so.3")
        atspiInit = try Self.find("atspi_init", in: atspi)
        setTimeout = try Self.find("atspi_set_timeout", in: atspi)
        eventGetType = try Self.find("atspi_event_get_type", in: atspi)
        listenerNew = try Self.find("atspi_event_listener_new", in: atspi)
        listenerRegister = try Self.find("atspi_event_listener_register", in: atspi)
        listenerDeregister = try Self.find("atspi_event_listener_deregister", in: atspi)
        busGet = try Self.find("dbus_bus_get", in: dbus)
        sendWithReplyAndBlock = try Self.find("dbus_connection_send_with_reply_and_block", in: dbus)
        setExitOnDisconnect = try Self.find("dbus_connection_set_exit_on_disconnect", in: dbus)
        connectionUnref = try Self.find("dbus_connection_unref", in: dbus)
        errorInit = try Self.find("dbus_error_init", in: dbus)
        errorFree = try Self.find("dbus_error_free", in: dbus)
        newMethodCall = try Self.find("dbus_message_new_method_call", in: dbus)
        messageUnref = try Self.find("dbus_message_unref", in: dbus)
        iterInit = try Self.find("dbus_message_iter_init", in: dbus)
        iterInitAppend = try Self.find("dbus_message_iter_init_append", in: dbus)
        iterArgType = try Self.find("dbus_message_iter_get_arg_type", in: dbus)
        iterBasic = try Self.find("dbus_message_iter_get_basic", in: dbus)
        iterRecurse = try Self.find("dbus_message_iter_recurse", in: dbus)
        iterAppendBasic = try Self.find("dbus_message_iter_append_basic", in: dbus)
        iterOpenContainer = try Self.find("dbus_message_iter_open_container", in: dbus)
        iterCloseContainer = try Self.find("dbus_message_iter_close_container", in: dbus)
        iterNext = try Self.find("dbus_message_iter_next", in: dbus)
        messageType = try Self.find("dbus_message_get_type", in: dbus)
        sendWithReply = try Self.find("dbus_connection_send_with_reply", in: dbus)
        pendingSetNotify = try Self.find("dbus_pending_call_set_notify", in: dbus)
        pendingStealReply = try Self.find("dbus_pending_call_steal_reply", in: dbus)
        pendingUnref = try Self.find("dbus_pending_call_unref", in: dbus)
        pendingCancel = try Self.find("dbus_pending_call_cancel", in: dbus)
        accessibilityBus = try Self.find("atspi_get_a11y_bus", in: atspi)
    }

    private static func open(_ name: String) throws(AccessibilityError) -> UnsafeMutableRawPointer {
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw AccessibilityError("cannot load \(name) (\(dlerror().map { String(cString: $0) } ?? "not found"))")
        }
        return library
    }

    private static func find<Function>(_ name: String, in library: UnsafeMutableRawPointer) throws(AccessibilityError) -> Function {
        guard let symbol = dlsym(library, name) else {
            throw AccessibilityError("cannot find \(name) in its library (\(dlerror().map { String(cString: $0) } ?? "no reason given"))")
        }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
