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
