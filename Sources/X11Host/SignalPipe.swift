#if canImport(Glibc)
import Glibc
#endif

/// Turns signals into bytes on a pipe, so the event loop sees them with its other descriptors.
enum SignalPipe {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs handlers for the signals and returns the pipe's non-blocking read end.
    static func install(_ signals: [Int32]) -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        writeEnd = ends[1]
        // A parent may have started us with these blocked (threads of other runtimes often block signals).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        return ends[0]
    }
}
