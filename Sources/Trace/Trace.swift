import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Start-up steps, timed: with `KEYPANE_TRACE=1` in the environment, each `Trace.step` prints a line on
/// stderr with the milliseconds since the process began (its exec, as the kernel recorded it) and since
/// the step before. Without it, a step costs one load of a flag. The lines name steps, never what is typed.
public enum Trace {
    /// Whether steps are printed; read once, from the environment.
    public static let isOn: Bool = getenv("KEYPANE_TRACE").map { !["", "0"].contains(String(cString: $0)) } ?? false

    /// When the process began and when the last step was done, in seconds since boot (0: no step yet);
    /// a step may be done on any thread.
    private static let times = Mutex((origin: 0.0, last: 0.0))

    /// Notes that a step is done.
    public static func step(_ name: @autoclosure () -> String) {
        guard isOn else { return }
        let now = boottime()
        let (origin, last) = times.withLock { times in
            if times.origin == 0 {
                let start = processStart() ?? now
                times = (start, start)
            }
            let before = times
            times.last = now
            return before
        }
        let line = "keypane: trace: \(format(now - origin)) ms (+\(format(now - last))) \(name())\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    private static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Seconds since boot, on the clock /proc/self/stat's start time counts on.
    private static func boottime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// When the process began, in seconds since boot (field 22 of /proc/self/stat, in clock ticks: 10 ms
    /// steps, so the first step's time is that coarse; the steps' differences are exact).
    private static func processStart() -> Double? {
        guard let file = fopen("/proc/self/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, 1024, file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // Field 3 is the first after the parenthesis; field 22 is the start time.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
