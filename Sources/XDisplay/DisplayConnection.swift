package import CX11
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Why the X server could not be used.
public enum XError: Error, Equatable, CustomStringConvertible {
    case cannotOpenDisplay(String)
    case missingExtension(String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): "cannot open display \"\(name)\""
        case .missingExtension(let name): "the X server lacks the \(name) extension"
        }
    }
}

/// A connection to the X server: the owner of the `Display` pointer.
///
/// X protocol errors are recorded, not fatal: `takeLastError` gives the last one. A lost connection ends
/// the program with a one-line message and status 1.
public final class DisplayConnection {
    package let display: OpaquePointer
    /// The display's name, as given or from $DISPLAY.
    public let name: String

    public init(name: String? = nil) throws(XError) {
        let resolved = name ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        guard let display = XOpenDisplay(name) else { throw .cannotOpenDisplay(resolved) }
        self.display = display
        self.name = resolved
        XSetErrorHandler { _, event in
            if let event { DisplayConnection.recordedError.store(event.pointee.error_code, ordering: .relaxed) }
            return 0
        }
        XSetIOErrorHandler { _ in
            let message = Array("keypane: lost the connection to the X server\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(1)
        }
    }

    deinit { XCloseDisplay(display) }

    /// The last X protocol error code seen, or 0 (X numbers its errors from 1). Xlib calls its error
    /// handler on the thread whose request failed.
    private static let recordedError = Atomic<UInt8>(0)

    /// The code of the last X protocol error since the last call, once the server has answered every
    /// request made before it; nil when there was none.
    public func takeLastError() -> UInt8? {
        XSync(display, 0)
        let code = Self.recordedError.exchange(0, ordering: .relaxed)
        return code == 0 ? nil : code
    }

    /// The connection's file descriptor, for the event loop's poll.
    public var fileDescriptor: Int32 { XConnectionNumber(display) }

    public var rootWindow: UInt { XDefaultRootWindow(display) }

    public var defaultScreen: Int32 { XDefaultScreen(display) }

    public func flush() { XFlush(display) }

    public func sync() { XSync(display, 0) }

    /// An atom by name, made if need be.
    public func atom(_ name: String) -> UInt { XInternAtom(display, name, 0) }

    /// The layouts of the X keymap's groups, as setxkbmap set them (us, de, ru): the layout field of the
    /// root window's _XKB_RULES_NAMES. Empty when the server does not say.
    public func keymapLayouts() -> [String] {
        var type: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, rootWindow, atom("_XKB_RULES_NAMES"), 0, 1024, 0, UInt(XA_STRING), &type,
                                 &format, &count, &after, &data) == Success, let data else { return [] }
        defer { XFree(data) }
        // Rules, model, layout, variant, options: NUL-terminated, one after another.
        let fields = UnsafeBufferPointer(start: data, count: Int(count)).split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count > 2 else { return [] }
        return String(decoding: fields[2], as: UTF8.self).split(separator: ",").map(String.init)
    }

    /// A window property of 32-bit items (atoms, windows, cardinals), at most `most` of them, taken off the
    /// window with `delete`; none when the window does not have it.
    public func numbers(of window: UInt, _ property: UInt, type wanted: UInt, most: Int, delete: Bool = false) -> [UInt] {
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, property, 0, most, delete ? 1 : 0, wanted,
                                 &type, &format, &count, &after, &data) == Success, let data else { return [] }
        defer { XFree(data) }
        // Format 32 comes as C longs.
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// Asks for many atoms in one round trip: Xlib keeps them, so `atom` finds each without asking again.
    public func internAtoms(_ names: [String]) {
        var pointers = names.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        var atoms = [UInt](repeating: 0, count: names.count)
        _ = XInternAtoms(display, &pointers, Int32(names.count), 0, &atoms)
    }
}
