import Testing
import X11Host

@Suite struct ServerClockTests {
    /// Events read late keep the spacing X gave them; the one read soonest sets the clocks' offset.
    @Test func lateEventsKeepTheirSpacing() {
        var clock = ServerClock()
        // Pressed at X's 5000 ms, read at once (the keyboard's 100.000 s).
        #expect(clock.time(ofStamp: 5000, readAt: 100.000) == 100.000)
        // Moved at 5700 and released at 5700, read 300 ms late after a busy frame.
        #expect(abs(clock.time(ofStamp: 5700, readAt: 101.000) - 100.700) < 0.002)
        #expect(abs(clock.time(ofStamp: 5700, readAt: 101.001) - 100.700) < 0.002)
        // An event read sooner than any before moves the offset: never later than its reading.
        #expect(clock.time(ofStamp: 6000, readAt: 100.990) == 100.990)
        // No stamp (CurrentTime): its reading.
        #expect(clock.time(ofStamp: 0, readAt: 102) == 102)
    }

    /// X's milliseconds wrap after 49.7 days; the times go on.
    @Test func theStampsWrap() {
        var clock = ServerClock()
        let before = clock.time(ofStamp: UInt(UInt32.max - 99), readAt: 50)
        let after = clock.time(ofStamp: 100, readAt: 50.2)
        #expect(abs(after - before - 0.2) < 0.002)
    }

    /// Which of two presses came first, by their stamps, also when X's milliseconds wrapped between them.
    @Test func theEarlierStampIsTheEarlierAcrossTheWrap() {
        #expect(ServerClock.isBefore(5000, 5001))
        #expect(!ServerClock.isBefore(5001, 5000))
        #expect(!ServerClock.isBefore(5000, 5000))
        #expect(ServerClock.isBefore(UInt(UInt32.max - 99), 100))
        #expect(!ServerClock.isBefore(100, UInt(UInt32.max - 99)))
    }

    /// Clocks that drift apart are followed: the offset may creep up by a millisecond a second.
    @Test func aDriftIsFollowed() {
        var clock = ServerClock()
        _ = clock.time(ofStamp: 1000, readAt: 10)
        // Ten seconds on, X's clock is 5 ms behind ours: the event reads at most 5 ms early, then less.
        let first = clock.time(ofStamp: 11_000, readAt: 20.005)
        #expect(first >= 20.0 && first <= 20.005)
        let later = clock.time(ofStamp: 21_000, readAt: 30.010)
        #expect(30.010 - later < 0.005)
    }
}
