import CX11
import Foundation
import Testing

/// The input click, heard through a real sound server (PulseAudio with a null sink, recorded through its
/// monitor) while keypane types into a real terminal.
@Suite(.serialized) struct SoundEndToEndTests {
    /// The keys of the default keyboard's letters layer that these tests tap, with the click each sounds,
    /// and what they type: q, space, delete (taking the space back), shift, q.
    static func keys(_ keyboard: LiveKeyboard) throws -> [(GeometryKey, ClickSound)] {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let q = try #require(letters.keys.first { $0.text == "q" })
        let space = try #require(letters.keys.first { $0.text == " " })
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })
        let shift = try #require(letters.key(action: "shift"))
        return [(q, .character), (space, .modifier), (delete, .delete), (shift, .modifier), (q, .character)]
    }
    static let typed = "qQ"

    /// Tap, then a pause longer than a click, so each click is heard on its own.
    static func tapSlowly(_ keys: [GeometryKey], on keyboard: LiveKeyboard) {
        for key in keys {
            keyboard.tap(key)
            usleep(150_000)
        }
    }

    @Test func eachKeySoundsTheClickOfItsKind() throws {
        let sound = try SoundServer()
        defer { sound.stop() }
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: sound.environment, sound: true)
        keyboard.extra = ["--no-globe"]
        let keys = try Self.keys(keyboard)
        let samples = try sound.record { Self.tapSlowly(keys.map(\.0), on: keyboard) }
        #expect(ClickSound.heard(in: samples) == keys.map(\.1))
        #expect(terminal.waitFor(text: Self.typed) == Self.typed)
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty)
    }

    /// Sound off on the command line, in the settings file, or at volume 0: no click, and typing as ever.
    @Test(arguments: [["--no-sound"], ["--volume", "0"], []])
    func noSoundMeansNoClick(arguments: [String]) throws {
        let sound = try SoundServer()
        defer { sound.stop() }
        let session = try XSession()
        defer { session.stop() }
        if arguments.isEmpty {
            let folder = session.configDirectory.appendingPathComponent("keypane")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "sound = off\n".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"] + arguments,
                                        environment: sound.environment, sound: true)
        keyboard.extra = ["--no-globe"]
        let keys = try Self.keys(keyboard)
        let samples = try sound.record { Self.tapSlowly(keys.map(\.0), on: keyboard) }
        #expect(!samples.isEmpty)
        #expect(ClickSound.heard(in: samples).isEmpty)
        #expect(terminal.waitFor(text: Self.typed) == Self.typed)
    }

    /// The desktop's switch (XSETTINGS Net/EnableEventSounds, here published by xsettingsd) silences the
    /// click, and turning it back on while keypane runs brings the click back.
    @Test func theDesktopsEventSoundSwitchIsHonoured() throws {
        let sound = try SoundServer()
        defer { sound.stop() }
        let session = try XSession()
        defer { session.stop() }
        let settings = session.directory.appendingPathComponent("xsettingsd.conf")
        try "Net/EnableEventSounds 0\n".write(to: settings, atomically: true, encoding: .utf8)
        let daemon = try session.start("/usr/bin/xsettingsd", ["-c", settings.path])
        _ = waitUntil { XGetSelectionOwner(session.connection, session.atom("_XSETTINGS_S0")) != 0 }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: sound.environment, sound: true)
        keyboard.extra = ["--no-globe"]
        let keys = try Self.keys(keyboard)
        let silent = try sound.record { Self.tapSlowly(keys.map(\.0), on: keyboard) }
        #expect(ClickSound.heard(in: silent).isEmpty)

        try "Net/EnableEventSounds 1\n".write(to: settings, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        usleep(300_000)
        let heard = try sound.record { Self.tapSlowly(keys.map(\.0), on: keyboard) }
        #expect(ClickSound.heard(in: heard) == keys.map(\.1))
        #expect(terminal.waitFor(text: Self.typed + Self.typed) == Self.typed + Self.typed)
    }

    /// No sound server and no sound card: the keyboard starts and types, and says once that it is silent.
    @Test func withNoAudioDeviceTheKeyboardTypesAndSaysSoOnce() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let nowhere = session.directory.appendingPathComponent("no-sound-server").path
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: ["PULSE_SERVER": "unix:" + nowhere], sound: true)
        keyboard.extra = ["--no-globe"]
        let keys = try Self.keys(keyboard)
        Self.tapSlowly(keys.map(\.0) + keys.map(\.0), on: keyboard)
        #expect(terminal.waitFor(text: Self.typed + Self.typed) == Self.typed + Self.typed)
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 1, "\(messages)")
        #expect(lines.first?.contains("without the input click") == true, "\(messages)")
    }

    /// The sound server goes away while keypane runs: typing goes on, and it is said once, not per key.
    @Test func aSoundServerThatGoesAwayIsSaidOnce() throws {
        let sound = try SoundServer()
        defer { sound.stop() }
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: sound.environment, sound: true)
        keyboard.extra = ["--no-globe"]
        let keys = try Self.keys(keyboard)
        let samples = try sound.record { Self.tapSlowly(keys.map(\.0), on: keyboard) }
        #expect(ClickSound.heard(in: samples) == keys.map(\.1))
        sound.stop()
        Self.tapSlowly(keys.map(\.0) + keys.map(\.0), on: keyboard)
        let expected = Self.typed + Self.typed + Self.typed
        #expect(terminal.waitFor(text: expected) == expected)
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 1, "\(messages)")
        #expect(lines.first?.contains("without the input click") == true, "\(messages)")
    }
}
