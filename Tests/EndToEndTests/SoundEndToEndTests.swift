import CX11
import Foundation
import Testing

/// A sound server, an X session with a terminal, and keypane typing there with its input click on; every
/// part stopped by `stop`.
final class ClickRig {
    let sound: SoundServer
    let session: XSession
    let terminal: Terminal
    let keyboard: LiveKeyboard
    /// The keys of the default keyboard's letters layer that the tests tap, with the click each sounds:
    /// q, space, delete (taking the space back), shift, q. They type `typed`.
    let keys: [(GeometryKey, ClickSound)]
    static let typed = "qQ"

    /// `prepare` readies the session before keypane starts; `environment` replaces the sound server's.
    /// Without `soundAtStart`, the server is stopped before keypane starts (`sound.restart()` brings it),
    /// and keypane is told only where its socket is, no driver chosen.
    init(arguments: [String] = [], environment: [String: String]? = nil, soundAtStart: Bool = true,
         prepare: (XSession) throws -> Void = { _ in }) throws {
        sound = try SoundServer()
        if !soundAtStart { sound.crash() }
        session = try XSession()
        try prepare(session)
        terminal = try Terminal(session: session)
        keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"] + arguments,
                                    environment: environment ?? (soundAtStart ? sound.environment : ["PULSE_SERVER": "unix:" + sound.socket]),
                                    sound: true)
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let q = try #require(letters.keys.first { $0.text == "q" })
        let space = try #require(letters.keys.first { $0.text == " " })
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })
        let shift = try #require(letters.key(action: "shift"))
        keys = [(q, .character), (space, .modifier), (delete, .delete), (shift, .modifier), (q, .character)]
    }

    func stop() {
        session.stop()
        sound.stop()
    }

    /// Taps the keys `times` times over, with a pause after each longer than a click, so each click is
    /// heard on its own.
    func tapSlowly(times: Int = 1) {
        for _ in 0..<times {
            for (key, _) in keys {
                keyboard.tap(key)
                usleep(150_000)
            }
        }
    }

    /// The clicks heard while the keys are tapped once.
    func clicksOfATurn() throws -> [ClickSound] {
        let samples = try sound.record { tapSlowly() }
        #expect(!samples.isEmpty)
        return ClickSound.heard(in: samples)
    }

    var expectedClicks: [ClickSound] { keys.map(\.1) }

    /// Ends keypane: its status is 0, and it said exactly one thing, that typing goes on in silence.
    func expectSilenceSaidOnce() {
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 1, "\(messages)")
        #expect(lines.first?.contains("without the input click") == true, "\(messages)")
    }
}

/// The input click, heard through a real sound server (PulseAudio with a null sink, recorded through its
/// monitor) while keypane types into a real terminal.
@Suite(.serialized) struct SoundEndToEndTests {
    @Test func eachKeySoundsTheClickOfItsKind() throws {
        let rig = try ClickRig()
        defer { rig.stop() }
        #expect(try rig.clicksOfATurn() == rig.expectedClicks)
        #expect(rig.terminal.waitFor(text: ClickRig.typed) == ClickRig.typed)
        let (status, messages) = rig.keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty)
    }

    /// Sound off on the command line, in the settings file, or at volume 0: no click, and typing as ever.
    @Test(arguments: [["--no-sound"], ["--volume", "0"], []])
    func noSoundMeansNoClick(arguments: [String]) throws {
        let rig = try ClickRig(arguments: arguments) { session in
            guard arguments.isEmpty else { return }
            let folder = session.configDirectory.appendingPathComponent("keypane")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "sound = off\n".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }
        defer { rig.stop() }
        #expect(try rig.clicksOfATurn().isEmpty)
        #expect(rig.terminal.waitFor(text: ClickRig.typed) == ClickRig.typed)
    }

    /// The desktop's switch (XSETTINGS Net/EnableEventSounds, here published by xsettingsd) silences the
    /// click, and turning it back on while keypane runs brings the click back.
    @Test func theDesktopsEventSoundSwitchIsHonoured() throws {
        var daemon: Process?
        var settings: URL?
        let rig = try ClickRig { session in
            let file = session.directory.appendingPathComponent("xsettingsd.conf")
            try "Net/EnableEventSounds 0\n".write(to: file, atomically: true, encoding: .utf8)
            daemon = try session.start("/usr/bin/xsettingsd", ["-c", file.path])
            _ = waitUntil { XGetSelectionOwner(session.connection, session.atom("_XSETTINGS_S0")) != 0 }
            settings = file
        }
        defer { rig.stop() }
        #expect(try rig.clicksOfATurn().isEmpty)

        try "Net/EnableEventSounds 1\n".write(to: try #require(settings), atomically: true, encoding: .utf8)
        kill(try #require(daemon).processIdentifier, SIGHUP)
        usleep(300_000)
        #expect(try rig.clicksOfATurn() == rig.expectedClicks)
        #expect(rig.terminal.waitFor(text: ClickRig.typed + ClickRig.typed) == ClickRig.typed + ClickRig.typed)
    }

    /// No sound server and no sound card: the keyboard starts and types, and says once that it is silent.
    @Test func withNoAudioDeviceTheKeyboardTypesAndSaysSoOnce() throws {
        let rig = try ClickRig(environment: ["PULSE_SERVER": "unix:/nonexistent/keypane-no-sound-server"])
        defer { rig.stop() }
        rig.tapSlowly(times: 2)
        let expected = ClickRig.typed + ClickRig.typed
        #expect(rig.terminal.waitFor(text: expected) == expected)
        rig.expectSilenceSaidOnce()
    }

    /// No sound server at start: the sound libraries are not loaded (1.9 MiB kept for good once they are),
    /// typing goes on in silence, said once; a server started later is found at a key press after the
    /// retry interval, and every key clicks.
    @Test func aSoundServerThatComesLaterIsFoundAndHeard() throws {
        let rig = try ClickRig(soundAtStart: false)
        defer { rig.stop() }
        rig.tapSlowly()
        // The libraries keypane has mapped (read whole: /proc files say they are empty).
        let maps = URL(fileURLWithPath: "/proc/\(rig.keyboard.process.processIdentifier)/maps")
        func mapped() throws -> String { String(decoding: try FileHandle(forReadingFrom: maps).readToEnd() ?? Data(), as: UTF8.self) }
        let silentMaps = try mapped()
        #expect(!silentMaps.contains("libcanberra") && !silentMaps.contains("libpulse"), "loaded with no server")
        try rig.sound.restart()
        usleep(5_500_000)
        rig.tapSlowly()
        let heard = try rig.clicksOfATurn()
        #expect(heard == rig.expectedClicks, "once the server is there: \(heard)")
        let soundingMaps = try mapped()
        #expect(soundingMaps.contains("libcanberra") && soundingMaps.contains("libpulse"), "loaded once the server is there")
        let (status, messages) = rig.keyboard.terminate()
        #expect(status == 0)
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 2 && lines.first?.contains("no sound server or sound card found") == true, "\(messages)")
        #expect(lines.last == "keypane: the input click is back", "\(messages)")
    }

    /// The sound server crashes while keypane types and is started again: typing never stops, the keys
    /// are silent meanwhile, and within the retry interval after it is back every key clicks again;
    /// both turns are said once.
    @Test func aSoundServerThatCrashesAndComesBackClicksAgain() throws {
        let rig = try ClickRig()
        defer { rig.stop() }
        #expect(try rig.clicksOfATurn() == rig.expectedClicks)
        rig.sound.crash()
        rig.tapSlowly()
        try rig.sound.restart()
        // keypane tries again at a key press once its retry interval (5 s) has passed since it failed.
        usleep(5_500_000)
        rig.tapSlowly()
        let heard = try rig.clicksOfATurn()
        #expect(heard == rig.expectedClicks, "after the restart: \(heard)")
        let expected = String(repeating: ClickRig.typed, count: 4)
        #expect(rig.terminal.waitFor(text: expected) == expected)
        let (status, messages) = rig.keyboard.terminate()
        #expect(status == 0)
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 2, "\(messages)")
        #expect(lines.first?.contains("typing goes on without the input click") == true, "\(messages)")
        #expect(lines.last == "keypane: the input click is back", "\(messages)")
    }

    /// The sound server goes away while keypane runs: typing goes on, and it is said once, not per key.
    @Test func aSoundServerThatGoesAwayIsSaidOnce() throws {
        let rig = try ClickRig()
        defer { rig.stop() }
        #expect(try rig.clicksOfATurn() == rig.expectedClicks)
        rig.sound.stop()
        rig.tapSlowly(times: 2)
        let expected = ClickRig.typed + ClickRig.typed + ClickRig.typed
        #expect(rig.terminal.waitFor(text: expected) == expected)
        rig.expectSilenceSaidOnce()
    }
}
