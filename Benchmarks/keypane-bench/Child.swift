// The programs the bench starts (X servers, window managers, keyboards, tools), and their end.

import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A program started with posix_spawn, stopped by its process id.
struct Child {
    var pid: pid_t

    /// The children started and not yet waited for. A bench stopped by a signal stops them first: an X
    /// server and a keyboard left running share their pages with the next run's and skew its memory.
    private static let running = Mutex<Set<pid_t>>([])
    private static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Starts a program with the bench's environment and `environment` added, its standard output to
    /// `output` (and its errors then to /dev/null) when given.
    static func spawn(_ argv: [String], environment: [String] = [], output: Int32? = nil) -> Child? {
        running.withLock { running in
            guard let pid = try? startProgram(argv, environment: environment + currentEnvironment,
                                              output: output.map(ProgramOutput.descriptor) ?? .inherited,
                                              quiet: output != nil) else { return nil }
            running.insert(pid)
            return Child(pid: pid)
        }
    }

    /// Waits for the program to end and returns its wait status; `usage`, when given, gets its resource use.
    @discardableResult
    func wait(usage: UnsafeMutablePointer<rusage>? = nil) -> Int32 {
        var status: Int32 = 0
        while wait4(pid, &status, 0, usage) < 0 && errno == EINTR {}
        Self.running.withLock { _ = $0.remove(pid) }
        return status
    }

    /// Asks the program to end, and ends it after 2 s if it has not.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid {
                Self.running.withLock { _ = $0.remove(pid) }
                return
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        wait()
    }

    /// From here on SIGINT, SIGTERM and SIGHUP stop every child still running, then the bench. Called before
    /// any thread or child is made: the signals are blocked in every thread and taken by one of its own.
    static func stopChildrenOnSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in endingSignals { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        pthread_create(&thread, nil, { _ in
            var signals = sigset_t()
            sigemptyset(&signals)
            for signal in Child.endingSignals { sigaddset(&signals, signal) }
            var received: Int32 = 0
            sigwait(&signals, &received)
            let left = Child.running.withLock { $0 }
            print("keypane-bench: signal \(received): stopping the \(left.count) programs it started")
            fflush(nil)
            // All asked at once: the main thread's X calls fail as their server goes, and Xlib may end the
            // bench before the waits below are over.
            for pid in left { kill(pid, SIGTERM) }
            for pid in left { Child(pid: pid).stop() }
            _exit(128 + received)
        }, nil)
    }
}
