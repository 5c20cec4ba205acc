#if canImport(Glibc)
import Glibc
#endif
import Synchronization
internal import Basics

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
        let started = startThread { box.run() }
        if started == nil { box.run() }
        thread = Mutex(started)
    }

    /// Whether the value is made.
    var isDone: Bool { box.value.withLock { $0 != nil } }

    /// The value, once made: waits for the thread to end the first time.
    func value() -> Value {
        if let running = thread.withLock({ $0.take() }) { pthread_join(running, nil) }
        return box.value.withLock { $0! }
    }
}
