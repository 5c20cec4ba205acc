#if canImport(Glibc)
import Glibc
#endif

/// Waits on the descriptors and the nearest deadline of a list of sources, and gives each its turn.
///
/// One round: every source says what it waits for (`EventSource.prepare`), the loop sleeps in poll(2) until a
/// descriptor is ready or the earliest deadline comes (with no deadline at all it sleeps without a timeout),
/// then each source whose descriptors are ready or whose deadline has passed gets a turn, in the order the
/// sources were added. That is all it does: what a source is, and what its turn means, is the source's.
///
/// A source may be added or removed at any time, from a turn too: one added takes part from the next round,
/// one removed gets no turn after its removal. A source whose descriptor is not open (POLLNVAL: closed while
/// still listed) gets that turn to notice and then leaves the loop, since waiting on it again would spin.
public final class EventLoop {
    /// Seconds on a clock that only goes forward.
    public typealias Clock = () -> Double

    private var sources: [any EventSource] = []
    /// Counts additions and removals: a round looks sources up again only when they changed.
    private var changes = 0
    private let clock: Clock
    private var running = false
    /// The round's descriptors for poll(2), the place of each one's source, and each source's deadline.
    private var fds: [pollfd] = []
    private var owners: [Int] = []
    private var deadlines: [Double?] = []
    /// Whether `run` is running and has not been told to stop.
    public var isRunning: Bool { running }
    /// How the loop sleeps: poll(2), or in tests a stand-in that advances a fake clock.
    var wait: (inout [pollfd], Int32) -> Int32 = { fds, timeout in poll(&fds, nfds_t(fds.count), timeout) }

    public init(clock: @escaping Clock = EventLoop.monotonicNow) {
        self.clock = clock
    }

    /// CLOCK_MONOTONIC in seconds: the clock of deadlines unless a test gives another.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Takes part from the next wait: one added while the sources prepare (by another's `prepare`) is
    /// prepared and waited for in the same round.
    public func add(_ source: any EventSource) {
        guard !contains(source) else { return }
        sources.append(source)
        changes += 1
    }

    /// Gets no turn from now on.
    public func remove(_ source: any EventSource) {
        sources.removeAll { $0 === source }
        changes += 1
    }

    public func contains(_ source: any EventSource) -> Bool {
        sources.contains { $0 === source }
    }

    /// Ends `run` after the current round.
    public func stop() { running = false }

    /// Runs rounds until `stop` is called or no source is left.
    public func run() throws(EventLoopError) {
        running = true
        while running && !sources.isEmpty {
            try round()
        }
    }

    /// One round: prepare every source, sleep until something is ready or due, give the turns.
    func round() throws(EventLoopError) {
        var now = clock()
        var round = sources
        let changesBefore = changes
        // The round's lists are kept from round to round: a round then allocates nothing of its own.
        fds.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
        deadlines.removeAll(keepingCapacity: true)
        var deadline: Double?
        func prepare(_ source: any EventSource) {
            let interest = source.prepare(now: now)
            for watch in interest.descriptors {
                fds.append(pollfd(fd: watch.descriptor, events: watch.events.rawValue, revents: 0))
                owners.append(deadlines.count)
            }
            deadlines.append(interest.deadline)
            if let due = interest.deadline, due < deadline ?? .infinity { deadline = due }
        }
        for source in round { prepare(source) }
        // A source that another's prepare added waits in this round too: left out, the wait could sleep
        // past what it waits for. Looked for only when the sources changed.
        while changes != changesBefore, let added = sources.first(where: { source in !round.contains { $0 === source } }) {
            round.append(added)
            prepare(added)
        }
        var timeout: Int32 = -1
        if let deadline {
            // Rounded up, so the wait never ends before the deadline, less a microsecond, so that
            // floating-point noise never adds a whole millisecond.
            let milliseconds = ((deadline - now) * 1000 - 0.001).rounded(.up)
            timeout = Int32(min(max(0, milliseconds), Double(Int32.max)))
        }
        if wait(&fds, timeout) < 0 {
            if errno == EINTR { return }
            throw EventLoopError(errno: errno)
        }
        now = clock()
        let changesAtWait = changes
        // A source's descriptors follow one another in `fds`, in the order of the sources.
        var slot = 0
        for index in round.indices {
            var ready: [Readiness] = []
            while slot < fds.count, owners[slot] == index {
                if fds[slot].revents != 0 { ready.append(Readiness(fds[slot].fd, PollEvents(rawValue: fds[slot].revents))) }
                slot += 1
            }
            let due = deadlines[index].map { $0 <= now } ?? false
            guard !ready.isEmpty || due else { continue }
            let source = round[index]
            // Removed by an earlier turn of this round: no turn.
            if changes != changesAtWait, !contains(source) { continue }
            source.turn(ready, now: now)
            if ready.contains(where: { $0.events.contains(.invalid) }) { remove(source) }
        }
    }
}

/// poll(2) failed for a reason other than a signal.
public struct EventLoopError: Error, CustomStringConvertible, Equatable {
    public var errno: Int32
    public var description: String { "cannot wait for events: \(String(cString: strerror(errno)))" }
}
