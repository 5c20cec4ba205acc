import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `make starts`: the keyboard started KEYPANE_STARTS times in a row (300 there) beside two busy loops, as
/// a session's login or a kiosk's restarts would: each start is left to come up (its window on screen, its
/// control socket answering), then ended with SIGTERM. Every tenth start has no font record (a first start:
/// its fonts are read whole, recorded and narrowed), every third shows Russian and emoji (fonts widened on
/// a thread). A crash, a start that never comes up or an exit other than 0 is reported with its start.
@Suite struct StartsTests {
    static let starts = Int(ProcessInfo.processInfo.environment["KEYPANE_STARTS"] ?? "") ?? 0
    static let program = ProcessInfo.processInfo.environment["KEYPANE_STARTS_PROGRAM"] ?? keypanePath

    @Test(.enabled(if: starts > 0, "make starts sets KEYPANE_STARTS"), .timeLimit(.minutes(60)))
    func startsInARowUnderLoad() throws {
        let session = try XSession()
        defer { session.stop() }
        let busy = try BusyLoops()
        defer { busy.stop() }
        var failures: [String] = []
        for start in 1...Self.starts {
            if start % 10 == 1 { try? FileManager.default.removeItem(at: session.cacheDirectory) }
            let arguments = start % 3 == 0 ? ["--keyboards", "ru,emoji"] : []
            let keyboard: LiveKeyboard
            do { keyboard = try LiveKeyboard(session: session, arguments: arguments, program: Self.program) } catch {
                failures.append("start \(start): \(error)")
                continue
            }
            let status = try session.run(Self.program, ["status"])
            let (code, stderr) = keyboard.terminate()
            let reason = keyboard.process.terminationReason == .uncaughtSignal ? "killed by signal \(code)" : "exit \(code)"
            if code != 0 || status.status != 0 {
                failures.append("start \(start) \(arguments): \(reason), status \(status.status): \(stderr.suffix(300))")
            }
        }
        print("starts: \(Self.starts) in a row beside two busy loops, \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.count) of \(Self.starts) starts failed:\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}
