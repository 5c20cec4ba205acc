import Foundation
import TestSupport

/// A private PulseAudio server whose only sink is a null sink, recorded through its monitor: what a
/// client plays there can be read back as samples. Its socket, runtime and home folders are its own, so
/// it neither finds nor disturbs a desktop's sound server. Stopped by process id.
final class SoundServer {
    static let rate = 48_000
    let directory: URL
    let socket: String
    /// The server's process id. pulseaudio closes every descriptor it inherits, which Foundation's
    /// Process takes for an exit (and then waits on it for good), so it is started with posix_spawn.
    private var server: pid_t = 0

    /// What a client needs in its environment to play here.
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket, "CANBERRA_DRIVER": "pulse"] }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-pa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("native").path
        let script = directory.appendingPathComponent("server.pa")
        try """
            load-module module-null-sink sink_name=clicks rate=\(Self.rate) channels=1
            load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
            set-default-sink clicks
            """.write(to: script, atomically: true, encoding: .utf8)
        try launch()
    }

    private func launch() throws {
        let arguments = ["/usr/bin/pulseaudio", "-n", "-F", directory.appendingPathComponent("server.pa").path,
                         "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit=yes",
                         "--log-target=stderr"]
        let environment = ["HOME=" + directory.path, "XDG_RUNTIME_DIR=" + directory.path,
                           "PULSE_RUNTIME_PATH=" + directory.appendingPathComponent("runtime").path, "PATH=/usr/bin:/bin"]
        server = try spawn(arguments, environment: environment)
        guard waitUntil({ FileManager.default.fileExists(atPath: self.socket) }) else {
            stop()
            throw TestFailure("pulseaudio did not start")
        }
    }

    deinit { stop() }

    /// Kills the server (SIGKILL, as a crash), keeping its folder, so that `restart` can bring it back.
    func crash() {
        guard server > 0 else { return }
        end(server, signal: SIGKILL)
        server = 0
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Starts the server again on the same socket, as a session's sound service restarts after a crash.
    func restart() throws {
        crash()
        try launch()
    }

    func stop() {
        if server > 0 {
            end(server, signal: SIGTERM)
            server = 0
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Records the null sink while `body` runs, and returns the samples (mono, 16 bit, `rate` a second).
    func record(_ body: () throws -> Void) throws -> [Int16] {
        let file = directory.appendingPathComponent("recording-\(UUID().uuidString).raw")
        let recorder = try spawn(["/usr/bin/parec", "--server=unix:" + socket, "--device=clicks.monitor", "--raw",
                                  "--format=s16le", "--rate=\(Self.rate)", "--channels=1", "--latency-msec=10"],
                                 output: file.path)
        defer { end(recorder, signal: SIGKILL) }
        // Recording has begun when samples arrive.
        guard waitUntil({ (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0 > 0 }) else {
            throw TestFailure("parec recorded nothing")
        }
        try body()
        usleep(300_000)
        end(recorder, signal: SIGINT)
        let data = try Data(contentsOf: file)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}


/// Starts a program with its output to `output` (or nowhere), as `startProgram` does. Its process id is
/// returned: `end` stops it.
func spawn(_ arguments: [String], environment: [String]? = nil, output: String = "/dev/null") throws -> pid_t {
    try startProgram(arguments, environment: environment ?? currentEnvironment, output: .file(output), quiet: true)
}

/// Sends `signal` to a spawned program and reaps it, killing it if it has not ended within 2 s.
/// Ending one already ended does nothing.
func end(_ pid: pid_t, signal: Int32) {
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == 0 else { return }
    kill(pid, signal)
    if !waitUntil(timeout: 2, { waitpid(pid, &status, WNOHANG) == pid }) {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}

/// The three input clicks, as scripts/make-sounds makes them: each is a tone of its own pitch.
enum ClickSound: String, CaseIterable {
    case character, delete, modifier

    var frequency: Double {
        switch self {
        case .character: 2400
        case .delete: 1500
        case .modifier: 900
        }
    }

    /// The clicks in a recording, in order: each sound that starts after 20 ms of quiet, told apart by
    /// its pitch.
    static func heard(in samples: [Int16]) -> [ClickSound] {
        let rate = Double(SoundServer.rate)
        return AudioAnalysis.onsets(samples, gap: SoundServer.rate / 50).map { start in
            allCases[AudioAnalysis.strongest(of: allCases.map(\.frequency), in: samples, from: start,
                                             length: SoundServer.rate / 50, rate: rate)]
        }
    }
}
