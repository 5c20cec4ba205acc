/// Something the event loop waits for: descriptors that become ready, a moment that comes, or both.
///
/// Before each wait the loop asks every source what it waits for (`prepare`); after the wait it gives a turn
/// to each source whose descriptors are ready or whose deadline has come, in the order the sources were
/// added. A source with no descriptors and no deadline costs nothing: it never makes the loop wake.
public protocol EventSource: AnyObject {
    /// Finishes what the last round left undone (a drawing, a flush) and says what to wait for now.
    /// Called before every wait, so it must be cheap; times are `EventLoop`'s clock, in seconds.
    func prepare(now: Double) -> Interest
    /// The source's turn: `ready` holds those of its descriptors that are ready (empty when its deadline
    /// is what came).
    func turn(_ ready: [Readiness], now: Double)
}

/// What a source waits for until its next turn.
public struct Interest: Equatable, Sendable {
    /// Descriptors and what to wait for on each.
    public var descriptors: [Watch]
    /// When the source needs a turn even if nothing is ready; nil for never.
    public var deadline: Double?

    public init(descriptors: [Watch] = [], deadline: Double? = nil) {
        self.descriptors = descriptors
        self.deadline = deadline
    }

    /// Waiting to read these descriptors, with an optional deadline.
    public static func reading(_ descriptors: [Int32], deadline: Double? = nil) -> Interest {
        Interest(descriptors: descriptors.map { Watch($0) }, deadline: deadline)
    }

    /// Waiting to read one descriptor, with an optional deadline: what most sources ask before every wait.
    public static func reading(_ descriptor: Int32, deadline: Double? = nil) -> Interest {
        Interest(descriptors: [Watch(descriptor)], deadline: deadline)
    }

    /// A turn at `deadline` (or never, for nil), with no descriptor.
    public static func at(_ deadline: Double?) -> Interest { Interest(deadline: deadline) }

    /// Nothing at all: the source sleeps until something else changes it.
    public static let nothing = Interest()
}

/// One descriptor and the conditions a source waits for on it.
public struct Watch: Equatable, Sendable {
    public var descriptor: Int32
    public var events: PollEvents
    public init(_ descriptor: Int32, for events: PollEvents = .readable) {
        self.descriptor = descriptor
        self.events = events
    }
}

/// A descriptor that is ready, and how.
public struct Readiness: Equatable, Sendable {
    public var descriptor: Int32
    public var events: PollEvents
    public init(_ descriptor: Int32, _ events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
    }
}

/// The conditions of poll(2), without the C: what a source waits for, and what a descriptor reports.
public struct PollEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Data to read (POLLIN), or the other end closed.
    public static let readable = PollEvents(rawValue: 0x001)
    /// Urgent data (POLLPRI).
    public static let priority = PollEvents(rawValue: 0x002)
    /// Room to write (POLLOUT).
    public static let writable = PollEvents(rawValue: 0x004)
    /// An error on the descriptor (POLLERR); reported whether asked for or not.
    public static let error = PollEvents(rawValue: 0x008)
    /// The other end hung up (POLLHUP); reported whether asked for or not.
    public static let hangUp = PollEvents(rawValue: 0x010)
    /// Not an open descriptor (POLLNVAL): closed while the source still lists it.
    public static let invalid = PollEvents(rawValue: 0x020)
}
