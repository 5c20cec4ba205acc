#if canImport(Glibc)
import Glibc
#endif
internal import Basics

/// Work done on a thread of its own, then a step on the loop's thread: at the source's first turn after the
/// work is done, `then` runs; after it the source waits for nothing. For work that must not hold up a frame
/// or a keystroke (reading a large file at start). The work hands its result over in a `Handover`.
public final class BackgroundWork: EventSource {
    private let readEnd: Int32, writeEnd: Int32
    private var thread: pthread_t?
    private var done = false
    private let then: () -> Void

    /// What the thread hands the loop: set by the work before it ends, read in `then` (after the thread
    /// was joined).
    public final class Handover<Value>: @unchecked Sendable {
        public var value: Value?
        public init() {}
    }

    /// Starts `work` on a thread (or, when no thread can be made, runs it now).
    public init(_ work: @escaping @Sendable () -> Void, then: @escaping () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
        self.then = then
        let descriptor = writeEnd
        let body: @Sendable () -> Void = {
            work()
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
        if descriptor >= 0, let started = startThread(body) {
            thread = started
        } else {
            // No thread: the work is done now; with no pipe either, `then` runs at once.
            body()
            if descriptor < 0 { finish() }
        }
    }

    public func prepare(now: Double) -> Interest { done ? .nothing : .reading(readEnd) }

    public func turn(_ ready: [Readiness], now: Double) {
        guard !done, !ready.isEmpty else { return }
        var byte: UInt8 = 0
        guard read(readEnd, &byte, 1) == 1 else { return }
        finish()
    }

    /// Waits here for the work, when the loop needs its result at once, and runs `then`; nothing if it
    /// ran already.
    public func finishNow() {
        if !done { finish() }
    }

    private func finish() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
        done = true
        if readEnd >= 0 {
            close(readEnd)
            close(writeEnd)
        }
        then()
    }
}
