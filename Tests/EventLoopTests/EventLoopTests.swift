@testable import EventLoop
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends close with it.
final class Pipe {
    let read: Int32
    private(set) var write: Int32
    init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        read = ends[0]
        write = ends[1]
        _ = fcntl(read, F_SETFL, O_NONBLOCK)
    }
    deinit {
        Glibc.close(read)
        if write >= 0 { Glibc.close(write) }
    }
    func send(_ byte: UInt8 = 1) {
        var byte = byte
        precondition(Glibc.write(write, &byte, 1) == 1)
    }
    func closeWriteEnd() {
        Glibc.close(write)
        write = -1
    }
    /// Reads what is waiting; nil at the end of the stream.
    func drain() -> Int? {
        var buffer = [UInt8](repeating: 0, count: 64)
        var total = 0
        while true {
            let count = Glibc.read(read, &buffer, buffer.count)
            if count > 0 { total += count; continue }
            return count == 0 ? nil : total
        }
    }
}

/// A clock the test moves: the loop's waits advance it by their timeout instead of sleeping, and each
/// timeout is recorded.
final class FakeTime {
    var now = 100.0
    var timeouts: [Int32] = []

    /// A wait with no timeout and nothing ready would sleep for ever: the test fails and the loop stops.
    func install(on loop: EventLoop) {
        loop.wait = { [self, unowned loop] fds, timeout in
            timeouts.append(timeout)
            if timeout > 0 { now += Double(timeout) / 1000 }
            let ready = poll(&fds, nfds_t(fds.count), 0)
            if ready == 0 && timeout < 0 && loop.isRunning {
                Issue.record("the loop would sleep for ever")
                loop.stop()
            }
            return ready
        }
    }
}

/// A source that records its turns, with what it waits for set by the test.
final class Recorder: EventSource {
    let name: String
    var descriptors: [Int32] = []
    var deadline: Double?
    var onTurn: (([Readiness], Double) -> Void)?
    let log: Log
    init(_ name: String, log: Log, reading descriptors: [Int32] = [], deadline: Double? = nil) {
        self.name = name
        self.log = log
        self.descriptors = descriptors
        self.deadline = deadline
    }
    func prepare(now: Double) -> Interest { .reading(descriptors, deadline: deadline) }
    func turn(_ ready: [Readiness], now: Double) {
        log.turns.append((name, ready.map(\.descriptor), now))
        onTurn?(ready, now)
    }
}

final class Log {
    var turns: [(name: String, ready: [Int32], now: Double)] = []
    var names: [String] { turns.map(\.name) }
}

@Suite struct EventLoopTests {
    let time = FakeTime()
    let log = Log()

    func makeLoop() -> EventLoop {
        let loop = EventLoop(clock: { [time] in time.now })
        time.install(on: loop)
        return loop
    }

    @Test func readySourcesTakeTurnsInTheOrderAdded() throws {
        let loop = makeLoop()
        let pipes = [Pipe(), Pipe(), Pipe()]
        let sources = ["first", "second", "third"].enumerated().map { index, name in
            Recorder(name, log: log, reading: [pipes[index].read])
        }
        sources.forEach(loop.add)
        pipes[2].send()
        pipes[0].send()
        try loop.round()
        #expect(log.names == ["first", "third"])
        #expect(log.turns.map(\.ready) == [[pipes[0].read], [pipes[2].read]])
        // Nothing is due: the wait had no timeout.
        #expect(time.timeouts == [-1])
    }

    @Test func eachSourceGetsItsOwnReadyDescriptorsAsTheyChangeFromRoundToRound() throws {
        let loop = makeLoop()
        let pipes = (0..<5).map { _ in Pipe() }
        let a = Recorder("a", log: log, reading: [pipes[0].read, pipes[1].read])
        let b = Recorder("b", log: log)
        let c = Recorder("c", log: log, reading: [pipes[2].read])
        let d = Recorder("d", log: log, reading: [pipes[3].read, pipes[4].read])
        [a, b, c, d].forEach(loop.add)
        pipes[1].send()
        pipes[3].send()
        pipes[4].send()
        try loop.round()
        #expect(log.names == ["a", "d"])
        #expect(log.turns.map(\.ready) == [[pipes[1].read], [pipes[3].read, pipes[4].read]])
        // The next round waits on other descriptors: the lists kept from the last round hold nothing of it.
        [1, 3, 4].forEach { _ = pipes[$0].drain() }
        a.descriptors = []
        c.descriptors = [pipes[0].read, pipes[2].read]
        pipes[0].send()
        log.turns = []
        try loop.round()
        #expect(log.names == ["c"])
        #expect(log.turns.map(\.ready) == [[pipes[0].read]])
    }

    @Test func sleepsUntilTheEarliestDeadlineAndTurnsOnlyWhatIsDue() throws {
        let loop = makeLoop()
        let late = Recorder("late", log: log, deadline: 100.5)
        let soon = Recorder("soon", log: log, deadline: 100.2)
        loop.add(late)
        loop.add(soon)
        try loop.round()
        #expect(time.timeouts == [200])
        #expect(log.names == ["soon"])
        soon.deadline = nil
        try loop.round()
        #expect(time.timeouts == [200, 300])
        #expect(log.names == ["soon", "late"])
        #expect(log.turns.last?.now == 100.5)
    }

    @Test func aDeadlineAlreadyPastDoesNotWait() throws {
        let loop = makeLoop()
        loop.add(Recorder("overdue", log: log, deadline: 99))
        try loop.round()
        #expect(time.timeouts == [0])
        #expect(log.names == ["overdue"])
    }

    @Test func timeoutsRoundUpSoADeadlineIsNeverMissedByAFraction() throws {
        let loop = makeLoop()
        loop.add(Recorder("fraction", log: log, deadline: 100.0101))
        try loop.round()
        #expect(time.timeouts == [11])
        #expect(log.names == ["fraction"])
    }

    @Test func sourcesWithNoDeadlineNeverMakeTheLoopWake() throws {
        let loop = makeLoop()
        let pipe = Pipe()
        loop.add(Recorder("reader", log: log, reading: [pipe.read]))
        loop.add(Recorder("idle", log: log))
        loop.add(TimerSource {})
        loop.add(ClosureSource(interest: { _ in .nothing }, turn: { _, _ in Issue.record("no turn without cause") }))
        try loop.round()
        #expect(time.timeouts == [-1])
        #expect(log.turns.isEmpty)
    }

    @Test func aSourceAddedOrRemovedDuringATurn() throws {
        let loop = makeLoop()
        let pipes = [Pipe(), Pipe(), Pipe()]
        let first = Recorder("first", log: log, reading: [pipes[0].read])
        let removed = Recorder("removed", log: log, reading: [pipes[1].read])
        let added = Recorder("added", log: log, reading: [pipes[2].read])
        first.onTurn = { _, _ in
            _ = pipes[0].drain()
            loop.remove(removed)
            loop.add(added)
        }
        loop.add(first)
        loop.add(removed)
        pipes.forEach { $0.send() }
        try loop.round()
        // Removed before its turn came: no turn, though its pipe was ready. Added: waits for the next round.
        #expect(log.names == ["first"])
        try loop.round()
        #expect(log.names == ["first", "added"])
        #expect(!loop.contains(removed))
    }

    @Test func aClosedWriterIsSeenAsAHangUp() throws {
        let loop = makeLoop()
        let pipe = Pipe()
        let reader = Recorder("reader", log: log, reading: [pipe.read])
        var ends = 0
        reader.onTurn = { _, _ in
            if pipe.drain() == nil {
                ends += 1
                reader.descriptors = []
            }
        }
        loop.add(reader)
        pipe.send()
        pipe.closeWriteEnd()
        try loop.round()
        #expect(ends == 1)
        // The reader stopped listing it: the next wait has nothing to wake it.
        try loop.round()
        #expect(log.names == ["reader"])
        #expect(time.timeouts == [-1, -1])
    }

    @Test func aSourceListingAClosedDescriptorLeavesTheLoop() throws {
        let loop = makeLoop()
        // A descriptor number far above any the tests open, and not open: what a source has after closing.
        let closed: Int32 = 4000
        try #require(fcntl(closed, F_GETFD) == -1)
        let broken = Recorder("broken", log: log, reading: [closed])
        var seen: PollEvents = []
        broken.onTurn = { ready, _ in seen = ready.first?.events ?? [] }
        loop.add(broken)
        // run ends: the only source left the loop after its turn, instead of spinning on the descriptor.
        try loop.run()
        #expect(seen.contains(.invalid))
        #expect(!loop.contains(broken))
        #expect(log.names == ["broken"])
    }

    @Test func stopEndsRunAfterTheRound() throws {
        let loop = makeLoop()
        let ticker = Recorder("ticker", log: log, deadline: 101)
        let other = Recorder("other", log: log, deadline: 101)
        ticker.onTurn = { _, now in
            ticker.deadline = now + 1
            if now >= 104 { loop.stop() }
        }
        other.onTurn = { _, _ in other.deadline = 104 }
        loop.add(ticker)
        loop.add(other)
        try loop.run()
        // The round that stopped still gave its later sources their turn.
        #expect(log.names == ["ticker", "other", "ticker", "ticker", "ticker", "other"])
        #expect(time.now == 104)
    }

    @Test func interruptedWaitsAreRetriedAndFailuresThrown() throws {
        let loop = EventLoop(clock: { 0 })
        var calls = 0
        loop.wait = { _, _ in
            calls += 1
            errno = calls == 1 ? EINTR : EBADF
            return -1
        }
        loop.add(Recorder("any", log: log, deadline: 1))
        try loop.round()
        #expect(throws: EventLoopError(errno: EBADF)) { try loop.round() }
        #expect(log.turns.isEmpty)
    }
}

@Suite struct TimerSourceTests {
    let time = FakeTime()

    @Test func firesOnceAtItsTimeAndCanBeMovedOrCancelled() throws {
        let loop = EventLoop(clock: { [time] in time.now })
        time.install(on: loop)
        var fired: [Double] = []
        let timer = TimerSource { fired.append(time.now) }
        loop.add(timer)
        timer.set(at: 100.03)
        timer.set(at: 100.05)
        try loop.round()
        #expect(fired == [100.05])
        #expect(timer.deadline == nil)
        try loop.round()
        #expect(fired.count == 1)
        #expect(time.timeouts == [50, -1])
        timer.set(at: 101)
        timer.cancel()
        try loop.round()
        #expect(fired.count == 1)
    }

    @Test func aTimerCancelledByAnEarlierTurnOfTheSameRoundDoesNotFire() throws {
        let loop = EventLoop(clock: { [time] in time.now })
        time.install(on: loop)
        var fired = false
        let timer = TimerSource { fired = true }
        let canceller = ClosureSource(interest: { _ in .at(100.01) }, turn: { _, _ in timer.cancel() })
        loop.add(canceller)
        loop.add(timer)
        timer.set(at: 100.01)
        try loop.round()
        #expect(!fired)
    }
}

@Suite struct AddedWhilePreparingTests {
    /// A source added by another's prepare (the emoji list's reader, started as the Globe key is held) is
    /// waited for in that very round; it used to wait for the next event, 90 ms later.
    @Test func aSourceAddedWhilePreparingIsWaitedForAtOnce() throws {
        let loop = EventLoop()
        let pipe = Pipe()
        pipe.send()
        var turns = 0
        let added = ClosureSource(interest: { _ in .reading([pipe.read]) }, turn: { _, _ in
            turns += 1
            _ = pipe.drain()
        })
        var adding = true
        let adder = ClosureSource(interest: { _ in
            if adding { loop.add(added); adding = false }
            return .nothing
        }, turn: { _, _ in })
        loop.add(adder)
        try loop.round()
        #expect(turns == 1)
    }
}

@Suite struct BackgroundWorkTests {
    /// The work runs off the loop's thread and its result comes back on it, at the source's turn; then the
    /// source waits for nothing.
    @Test func theResultComesBackOnTheLoopsThread() throws {
        let loop = EventLoop()
        let loopThread = pthread_self()
        let handover = BackgroundWork.Handover<Int>()
        var got: Int?
        var onLoopThread = false
        let work = BackgroundWork({
            usleep(20_000)
            handover.value = pthread_equal(pthread_self(), loopThread) == 0 ? 42 : -1
        }, then: {
            got = handover.value
            onLoopThread = pthread_equal(pthread_self(), loopThread) != 0
            loop.stop()
        })
        #expect(got == nil, "not before the loop's turn")
        let timeout = TimerSource { loop.stop() }
        timeout.set(at: EventLoop.monotonicNow() + 5)
        loop.add(work)
        loop.add(timeout)
        try loop.run()
        #expect(got == 42, "worked on another thread")
        #expect(onLoopThread)
        #expect(work.prepare(now: 0) == .nothing)
    }

    /// Needed at once (the keyboard is about to be shown), the work is waited for here and `then` runs.
    @Test func finishNowWaitsForTheWork() {
        let handover = BackgroundWork.Handover<String>()
        var got: String?
        let work = BackgroundWork({
            usleep(50_000)
            handover.value = "read"
        }, then: { got = handover.value })
        #expect(got == nil)
        work.finishNow()
        #expect(got == "read" && work.prepare(now: 0) == .nothing)
        work.finishNow()
        #expect(got == "read", "once")
    }
}

@Suite struct SourceGroupTests {
    let time = FakeTime()

    /// A group waits for its members' descriptors and their earliest deadline, and gives a turn only to
    /// the member whose descriptor is ready or whose time came, with its own descriptors.
    @Test func eachMemberGetsItsOwnTurn() throws {
        let loop = EventLoop(clock: { [time] in time.now })
        time.install(on: loop)
        let pipe = Pipe(), other = Pipe()
        var turns: [String] = []
        let reader = ClosureSource(interest: { _ in .reading([pipe.read]) },
                                   turn: { ready, _ in turns.append("reader \(ready.map(\.descriptor) == [pipe.read])") })
        let quiet = ClosureSource(interest: { _ in .reading([other.read]) }, turn: { _, _ in turns.append("quiet") })
        var fired = 0
        let early = TimerSource { fired += 1 }, late = TimerSource { fired += 10 }
        early.set(at: 100.02)
        late.set(at: 100.5)
        loop.add(SourceGroup([reader, quiet, early, late]))
        try loop.round()
        #expect(turns.isEmpty && fired == 1)
        #expect(time.timeouts.last == 20)
        pipe.send()
        try loop.round()
        // The fake clock sleeps the whole timeout: the late timer's time came too.
        #expect(turns == ["reader true"])
        #expect(fired == 11)
    }
}
