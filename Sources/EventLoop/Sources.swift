/// A one-shot timer: a turn at the moment it is set for, then nothing until it is set again.
public final class TimerSource: EventSource {
    /// When it fires; nil when it is not set.
    public private(set) var deadline: Double?
    private let action: () -> Void

    public init(_ action: @escaping () -> Void) { self.action = action }

    /// Fires at `time` (seconds on the loop's clock), instead of any earlier setting.
    public func set(at time: Double) { deadline = time }

    public func cancel() { deadline = nil }

    public func prepare(now: Double) -> Interest { .at(deadline) }

    public func turn(_ ready: [Readiness], now: Double) {
        // Cancelled or moved later by another source's turn in the same round.
        guard let deadline, deadline <= now else { return }
        self.deadline = nil
        action()
    }
}

/// A source made of closures, for those with little state of their own.
public final class ClosureSource: EventSource {
    private let interest: (Double) -> Interest
    private let action: ([Readiness], Double) -> Void

    /// `interest` is asked before every wait (with the time now); `turn` is the source's turn.
    public init(interest: @escaping (_ now: Double) -> Interest,
                turn: @escaping (_ ready: [Readiness], _ now: Double) -> Void) {
        self.interest = interest
        action = turn
    }

    public func prepare(now: Double) -> Interest { interest(now) }
    public func turn(_ ready: [Readiness], now: Double) { action(ready, now) }
}

/// Several sources taking part as one: a component that waits on a few things (a bus and its timers)
/// is added to the loop once. Each member is prepared and given its turn as the loop would.
public final class SourceGroup: EventSource {
    private let members: [any EventSource]
    private var interests: [Interest] = []

    public init(_ members: [any EventSource]) { self.members = members }

    public func prepare(now: Double) -> Interest {
        interests = members.map { $0.prepare(now: now) }
        return Interest(descriptors: interests.flatMap(\.descriptors), deadline: interests.compactMap(\.deadline).min())
    }

    public func turn(_ ready: [Readiness], now: Double) {
        for (member, interest) in zip(members, interests) {
            let mine = ready.filter { readiness in interest.descriptors.contains { $0.descriptor == readiness.descriptor } }
            let due = interest.deadline.map { $0 <= now } ?? false
            if !mine.isEmpty || due { member.turn(mine, now: now) }
        }
    }
}
