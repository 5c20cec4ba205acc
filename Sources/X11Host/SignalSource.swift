internal import EventLoop
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Signals as an event source: a handler writes each signal's number to a pipe, and the loop reads them
/// with its other descriptors, so a signal is acted on between two X calls, never in the middle of one.
final class SignalSource: EventSource {
    /// The pipe's write end, read by the handler on whichever thread the signal came to.
    private static let writeEnd = Atomic<Int32>(-1)
    /// The pipe's non-blocking read end, or -1 when no pipe could be made.
    private let readEnd: Int32
    private let received: (Int32) -> Void

    /// Installs handlers for `signals`; `received` is called in the loop with each signal that came.
    init(_ signals: [Int32], received: @escaping (Int32) -> Void) {
        self.received = received
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            readEnd = -1
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        Self.writeEnd.store(ends[1], ordering: .releasing)
        // A parent may have started us with these blocked (threads of other runtimes often block signals).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalSource.writeEnd.load(ordering: .acquiring), &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    func prepare(now: Double) -> Interest { readEnd < 0 ? .nothing : .reading(readEnd) }

    func turn(_ ready: [Readiness], now: Double) {
        var signal: UInt8 = 0
        while read(readEnd, &signal, 1) == 1 { received(Int32(signal)) }
    }
}
