internal import CAtspi
public import EventLoop

/// GLib's default main context as one of the event loop's sources, so that libraries built on it (libatspi,
/// its D-Bus connections) run in Keypane's own loop: no second thread, no GLib main loop, no polling timer.
///
/// Before each wait it prepares the context and asks which descriptors and what timeout GLib wants; in its
/// turn it tells GLib what poll found and dispatches what is ready. A context with nothing to time waits
/// with no deadline, so an idle bus costs no wake-ups.
public final class GLibContextSource: EventSource {
    private let context: OpaquePointer?
    private var fds = [GPollFD](repeating: GPollFD(), count: 8)
    private var count = 0
    private var priority: gint = 0

    /// Takes the default main context for this thread. Nil when another thread owns it.
    public init?() {
        context = g_main_context_default()
        guard g_main_context_acquire(context) != 0 else { return nil }
    }

    deinit { g_main_context_release(context) }

    public func prepare(now: Double) -> Interest {
        let readyNow = g_main_context_prepare(context, &priority) != 0
        var timeout: gint = -1
        while true {
            count = Int(g_main_context_query(context, priority, &timeout, &fds, gint(fds.count)))
            if count <= fds.count { break }
            fds = [GPollFD](repeating: GPollFD(), count: count)
        }
        let watches = fds[0..<count].map { Watch($0.fd, for: PollEvents(rawValue: Int16(bitPattern: $0.events))) }
        let deadline: Double? = readyNow || timeout == 0 ? now : timeout < 0 ? nil : now + Double(timeout) / 1000
        return Interest(descriptors: watches, deadline: deadline)
    }

    public func turn(_ ready: [Readiness], now: Double) {
        for index in 0..<count {
            let events = ready.first { $0.descriptor == fds[index].fd }?.events.rawValue ?? 0
            fds[index].revents = UInt16(bitPattern: events)
        }
        if g_main_context_check(context, priority, &fds, gint(count)) != 0 {
            g_main_context_dispatch(context)
        }
    }
}
