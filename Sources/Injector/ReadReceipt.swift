internal import CX11
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

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

    /// Whether the client of `window` (a focus window, or a window inside a top-level one) has read every
    /// event sent to it before now: true once it answers, false if it does not answer within `timeout`
    /// seconds (busy, stopped) or cannot be asked (the window is gone, or its client speaks no ping, as
    /// xterm does).
    mutating func hasRead(_ window: UInt, timeout: Double) -> Bool {
        guard let client = pingableTopLevel(of: window) else { return false }
        stamp += 1
        // The answer goes to the root window for its substructure; listened for only while it is awaited.
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        let mask = attributes.your_event_mask
        XSelectInput(display, root, mask | SubstructureNotifyMask)
        defer { XSelectInput(display, root, mask) }

        var ping = XEvent()
        ping.xclient.type = ClientMessage
        ping.xclient.window = client
        ping.xclient.message_type = protocolsAtom
        ping.xclient.format = 32
        ping.xclient.data.l = (Int(pingAtom), stamp, Int(client), 0, 0)
        XSendEvent(display, client, 0, 0, &ping)
        XFlush(display)

        let deadline = Self.now() + timeout
        var wanted = (pingAtom, stamp, client)
        while true {
            var answer = XEvent()
            let found = withUnsafeMutablePointer(to: &wanted) { pointer in
                XCheckIfEvent(display, &answer, { _, event, argument in
                    guard let event, let argument else { return 0 }
                    let wanted = argument.withMemoryRebound(to: (UInt, Int, UInt).self, capacity: 1) { $0.pointee }
                    let message = event.pointee.xclient
                    return event.pointee.type == ClientMessage && message.data.l.0 == Int(wanted.0)
                        && message.data.l.1 == wanted.1 && UInt(message.data.l.2) == wanted.2 ? 1 : 0
                }, UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: CChar.self))
            }
            if found != 0 { return true }
            let left = deadline - Self.now()
            if left <= 0 { return false }
            var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 0.05) * 1000) + 1)
        }
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

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
