#if canImport(Glibc)
import Glibc
#endif
@testable import Sound
import Testing

/// The input click's libraries are loaded only when a sound server or card may answer.
@Suite struct SoundDevicesTests {
    func mayAnswer(_ environment: [String: String], existing: Set<String> = [], devices: [String] = []) -> Bool {
        SoundDevices.mayAnswer(environment: environment, userID: 1000, exists: { existing.contains($0) },
                               soundDevices: devices)
    }

    @Test func nothingToBeFoundMeansNoSound() {
        #expect(!mayAnswer([:]))
        #expect(!mayAnswer(["XDG_RUNTIME_DIR": "/run/user/1000"], devices: [".", "..", "controlC0", "seq", "timer", "pcmC0D0c"]))
        #expect(!mayAnswer(["PULSE_SERVER": "unix:/nonexistent/native"], existing: ["/run/user/1000/pulse/native"]),
                "a server named is the one asked")
    }

    @Test func aSessionsSoundServerIsFoundByItsSocket() {
        #expect(mayAnswer([:], existing: ["/run/user/1000/pulse/native"]))
        #expect(mayAnswer(["XDG_RUNTIME_DIR": "/tmp/r"], existing: ["/tmp/r/pipewire-0"]))
        #expect(!mayAnswer(["XDG_RUNTIME_DIR": "/tmp/r"], existing: ["/run/user/1000/pulse/native"]))
        #expect(mayAnswer(["PULSE_RUNTIME_PATH": "/tmp/p"], existing: ["/tmp/p/native"]))
    }

    @Test func aServerNamedInTheEnvironmentIsTried() {
        #expect(mayAnswer(["PULSE_SERVER": "unix:/tmp/s/native"], existing: ["/tmp/s/native"]))
        #expect(mayAnswer(["PULSE_SERVER": "/tmp/s/native"], existing: ["/tmp/s/native"]))
        #expect(mayAnswer(["PULSE_SERVER": "tcp:192.168.1.2:4713"]))
        #expect(mayAnswer(["PULSE_SERVER": "{0123abcd}unix:/gone/native {0123abcd}tcp:localhost"]))
        #expect(!mayAnswer(["PULSE_SERVER": "{0123abcd}unix:/gone/native"]))
        #expect(!mayAnswer(["PULSE_SERVER": "   "]), "an empty setting is no setting")
    }

    @Test func aCardOrAChosenDriverIsTried() {
        #expect(mayAnswer([:], devices: ["controlC0", "pcmC0D0p", "pcmC0D0c"]))
        #expect(mayAnswer(["CANBERRA_DRIVER": "alsa"]))
    }
}
