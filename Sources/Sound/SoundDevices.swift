internal import Basics
#if canImport(Glibc)
import Glibc
#endif

/// Whether a sound server or a sound card may be there to play the input click, found without loading
/// any sound library: a PulseAudio or PipeWire socket, a server named in $PULSE_SERVER, or a playback
/// device under /dev/snd. A driver chosen by the user ($CANBERRA_DRIVER) is always tried.
enum SoundDevices {
    static func mayAnswer() -> Bool {
        let environment = ProcessFacts.environment(["CANBERRA_DRIVER", "PULSE_SERVER", "PULSE_RUNTIME_PATH", "XDG_RUNTIME_DIR"])
        return mayAnswer(environment: environment, userID: ProcessFacts.userID, exists: { access($0, F_OK) == 0 },
                         soundDevices: (Files.names(in: "/dev/snd", ending: "p") ?? []).map { $0 + "p" })
    }

    /// The decision, from the environment, the user's id, which paths exist and the names in /dev/snd.
    static func mayAnswer(environment: [String: String], userID: uid_t, exists: (String) -> Bool,
                          soundDevices: [String]) -> Bool {
        if let driver = environment["CANBERRA_DRIVER"], !driver.isEmpty { return true }
        // $PULSE_SERVER: addresses separated by spaces, each maybe after "{machine id}"; a Unix socket's
        // is a path ("unix:/run/..." or "/run/..."), any other (tcp:host, a host name) may answer.
        if let servers = environment["PULSE_SERVER"], !servers.allSatisfy(\.isWhitespace) {
            return servers.split(whereSeparator: \.isWhitespace).contains { entry in
                var address = Substring(entry)
                if address.hasPrefix("{"), let close = address.firstIndex(of: "}") { address = address[address.index(after: close)...] }
                if address.hasPrefix("unix:") { address = address.dropFirst(5) }
                return address.hasPrefix("/") ? exists(String(address)) : !address.isEmpty
            }
        }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(Int(userID))"
        var sockets = [runtime + "/pulse/native", runtime + "/pipewire-0"]
        if let pulse = environment["PULSE_RUNTIME_PATH"], !pulse.isEmpty { sockets.append(pulse + "/native") }
        if sockets.contains(where: exists) { return true }
        // A card's playback device: pcmC0D0p (ALSA, or a sound server started on demand).
        return soundDevices.contains { $0.hasPrefix("pcmC") && $0.hasSuffix("p") }
    }
}
