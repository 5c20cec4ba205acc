internal import EventLoop

#if canImport(Glibc)
import Glibc
#endif

/// Gives the system back the heap's free pages once the keyboard rests: a resize or a visit to other
/// keyboards frees images and layouts in the middle of the heap, which malloc keeps otherwise.
final class MemoryRest: EventSource {
    /// How long the keyboard must be left alone before the memory freed meanwhile is given back.
    static let rest = 2.0
    private let timer = TimerSource { _ = MemoryRest.mallocTrim?(0) }
    /// glibc's malloc_trim (malloc.h, which no module of the toolchain's Glibc includes).
    private static let mallocTrim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }

    /// Something happened at `now`: the rest starts again.
    func busy(at now: Double) { timer.set(at: now + Self.rest) }

    /// Gives the free pages back now (what start-up freed, as it ends).
    func giveBackNow() { _ = Self.mallocTrim?(0) }

    func prepare(now: Double) -> Interest { timer.prepare(now: now) }
    func turn(_ ready: [Readiness], now: Double) { timer.turn(ready, now: now) }
}
