internal import CAtspi

#if canImport(Glibc)
import Glibc
#endif

/// libatspi and libdbus, opened with dlopen when the keyboard first follows the focus, after its first
/// frame: the program is not linked with them (only their headers are used), so they and the libraries
/// under them (libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap, libgpg-error) cost nothing at
/// start-up, nor any memory when the focus is not followed.
///
/// Each function is looked up by name and called through a pointer of the type shim.h names after it,
/// which scripts/check-c-declarations compares with the function's header at every build.
struct AccessibilityLibraries {
    // libatspi
    let atspiInit: atspi_init_fn
    let setTimeout: atspi_set_timeout_fn
    let eventGetType: atspi_event_get_type_fn
    let listenerNew: atspi_event_listener_new_fn
    let listenerRegister: atspi_event_listener_register_fn
    let listenerDeregister: atspi_event_listener_deregister_fn

    // libdbus
    let busGet: dbus_bus_get_fn
    let sendWithReplyAndBlock: dbus_connection_send_with_reply_and_block_fn
    let setExitOnDisconnect: dbus_connection_set_exit_on_disconnect_fn
    let connectionUnref: dbus_connection_unref_fn
    let errorInit: dbus_error_init_fn
    let errorFree: dbus_error_free_fn
    let newMethodCall: dbus_message_new_method_call_fn
    let messageUnref: dbus_message_unref_fn
    let iterInit: dbus_message_iter_init_fn
    let iterInitAppend: dbus_message_iter_init_append_fn
    let iterArgType: dbus_message_iter_get_arg_type_fn
    let iterBasic: dbus_message_iter_get_basic_fn
    let iterRecurse: dbus_message_iter_recurse_fn
    let iterAppendBasic: dbus_message_iter_append_basic_fn
    let iterOpenContainer: dbus_message_iter_open_container_fn
    let iterCloseContainer: dbus_message_iter_close_container_fn
    let iterNext: dbus_message_iter_next_fn
    let messageType: dbus_message_get_type_fn
    let sendWithReply: dbus_connection_send_with_reply_fn
    let pendingSetNotify: dbus_pending_call_set_notify_fn
    let pendingStealReply: dbus_pending_call_steal_reply_fn
    let pendingUnref: dbus_pending_call_unref_fn
    let pendingCancel: dbus_pending_call_cancel_fn
    /// libatspi's connection to the accessibility bus, which GLib's main context serves.
    let accessibilityBus: atspi_get_a11y_bus_fn

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
