internal import CX11
public import XDisplay

/// Learns whether a window's client has read the key events sent to it, with the EWMH ping
/// (`_NET_WM_PING`): a client answers it when it reads it, and it reads its events in order, so an answer
/// means that every key sent before the ping was read, and translated with the keymap of that moment.
///
/// A spare keycode may be mapped anew only once the client that got its last press has read it: clients
/// (Xlib, GDK, xkbcommon) fetch a changed keymap from the server when they read the notice of the change,
/// so a client that lags reads the press after the new mapping and types the new character.
struct ReadReceipt {
    private let display: OpaquePointer
    private let root: UInt
    private let protocolsAtom: UInt
    private let pingAtom: UInt
    /// Told apart from the window manager's own pings and answers to earlier ones.
    private var stamp = 0x4B50_0000

    init(connection: DisplayConnection) {
        display = connection.display
        root = connection.rootWindow
        protocolsAtom = connection.atom("WM_PROTOCOLS")
        pingAtom = connection.atom("_NET_WM_PING")
    }

    /// The root window's event mask before listening for answers, read once.
    private var rootMask: Int?

    /// Pings the client of `window` (a focus window, or a window inside a top-level one) and returns the
    /// ping's stamp, or nil when it cannot be asked (the window is gone, or its client speaks no ping, as
    /// xterm does). Its answer says that it has read every event sent to it before now.
    mutating func ask(_ window: UInt) -> Int? {
        guard let client = pingableTopLevel(of: window) else { return nil }
        stamp += 1
        // The answer goes to the root window for its substructure; listened for only while it is awaited.
        if rootMask == nil {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(display, root, &attributes)
            rootMask = attributes.your_event_mask
        }
        XSelectInput(display, root, (rootMask ?? 0) | SubstructureNotifyMask)

        var ping = XEvent()
        ping.xclient.type = ClientMessage
        ping.xclient.window = client
        ping.xclient.message_type = protocolsAtom
        ping.xclient.format = 32
        ping.xclient.data.l = (Int(pingAtom), stamp, Int(client), 0, 0)
        XSendEvent(display, client, 0, 0, &ping)
        XFlush(display)
        return stamp
    }

    /// Whether a client message to `window` of `type` with `data` is the answer to the ping `stamp`.
    func isAnswer(window: UInt, type: UInt, data: (Int, Int, Int, Int, Int), to stamp: Int) -> Bool {
        window == root && type == protocolsAtom && data.0 == Int(pingAtom) && data.1 == stamp
    }

    /// Stops listening for answers once none is awaited.
    func stopListening() {
        if let rootMask { XSelectInput(display, root, rootMask) }
    }

    /// The window whose client answers pings: `window` or the first of its ancestors that lists
    /// `_NET_WM_PING` in WM_PROTOCOLS.
    private func pingableTopLevel(of window: UInt) -> UInt? {
        var current = window
        while current != 0 && current != root {
            var protocols: UnsafeMutablePointer<Atom>?
            var count: Int32 = 0
            if XGetWMProtocols(display, current, &protocols, &count) != 0, let protocols {
                defer { XFree(protocols) }
                if UnsafeBufferPointer(start: protocols, count: Int(count)).contains(pingAtom) { return current }
            }
            var rootReturn: UInt = 0, parent: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var childCount: UInt32 = 0
            guard XQueryTree(display, current, &rootReturn, &parent, &children, &childCount) != 0 else { return nil }
            if let children { XFree(children) }
            current = parent
        }
        return nil
    }
}
