/// The X server's event times on the keyboard's clock. X stamps each event in milliseconds when it happens;
/// the keyboard reads it later, by as much as a busy main loop keeps it waiting. Typing needs the former: a
/// finger held 700 ms is a long press however late its events are read.
///
/// The offset between the two clocks is the smallest gap seen between an event's stamp and its reading:
/// the event read soonest after it happened. It may creep up by a millisecond a second, so that clocks
/// that drift apart are followed. An event's time is never later than its reading.
public struct ServerClock: Sendable {
    private var offset: Double?
    private var lastReading = 0.0
    private var lastStamp: UInt32?
    private var wraps = 0.0

    public init() {}

    /// Whether the event stamped `a` came before the one stamped `b`, across the wrap: of two stamps, the
    /// one less than half the range behind is the earlier.
    public static func isBefore(_ a: UInt, _ b: UInt) -> Bool {
        Int32(bitPattern: UInt32(truncatingIfNeeded: a) &- UInt32(truncatingIfNeeded: b)) < 0
    }

    /// The time of an event stamped `stamp` (X's 32-bit milliseconds, which wrap every 49.7 days), read at
    /// `now` (monotonic seconds).
    public mutating func time(ofStamp stamp: UInt, readAt now: Double) -> Double {
        let stamp = UInt32(truncatingIfNeeded: stamp)
        // X time 0 is CurrentTime: no stamp.
        guard stamp != 0 else { return now }
        if let last = lastStamp, stamp < last, last - stamp > UInt32.max / 2 { wraps += 1 }
        lastStamp = stamp
        let server = (wraps * 4_294_967_296 + Double(stamp)) / 1000
        let gap = now - server
        if let offset {
            self.offset = min(gap, offset + max(0, now - lastReading) * 0.001)
        } else {
            offset = gap
        }
        lastReading = now
        return min(now, server + offset!)
    }
}
