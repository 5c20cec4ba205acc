#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A value made on a thread of its own: asked whether it is done, or waited for. Made with no thread to
/// run on, it is made at once.
final class ThreadResult<Value: Sendable>: Sendable {
    /// What the thread writes and the owner reads.
    private final class Box: Sendable {
        let value = Mutex<Value?>(nil)
        let make: @Sendable () -> Value
        init(making make: @escaping @Sendable () -> Value) { self.make = make }
        func run() {
            let made = make()
            value.withLock { $0 = made }
        }
    }

    private let box: Box
    /// The thread, until it is joined.
    private let thread: Mutex<pthread_t?>

    init(_ make: @escaping @Sendable () -> Value) {
        let box = Box(making: make)
        self.box = box
        thread = Mutex(startThread { box.run() })
    }

    /// Whether the value is made.
    var isDone: Bool { box.value.withLock { $0 != nil } }

    /// The value, once made: waits for the thread to end the first time.
    func value() -> Value {
        if let running = thread.withLock({ $0.take() }) { pthread_join(running, nil) }
        return box.value.withLock { $0! }
    }
}

/// The closure a thread runs.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `body` on a new thread with every signal blocked (signals are the loop's); runs it now and returns
/// nil when no thread can be made.
private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    guard pthread_create(&thread, nil, { context in
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context) == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
        return nil
    }
    return thread
}
