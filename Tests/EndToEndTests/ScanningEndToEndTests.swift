import Foundation
import Testing

/// Switch scanning on the live keyboard, into xterm, with XTest pressing the switch keys: the highlighted
/// keys are read back from `keypane status` (its `scanned:` line), and the switch is pressed when the key
/// wanted is among them, as a person watching the keyboard would.
@Suite(.serialized) struct ScanningEndToEndTests {
    /// Types `text` by scanning: for each character, waits (auto) or moves the highlight (step, with
    /// `move`) until the key is highlighted, then picks it with `pick`, at every level until it is typed.
    ///
    /// A person sees when a pick came too late (the highlight had moved back up, and nothing was typed)
    /// and scans for the key again; so does this, by the bytes that reached `terminal`.
    static func scan(_ text: String, session: XSession, pick: String, move: String?, terminal: Terminal,
                     hold: Double = 0.15) throws {
        try scan(text, session: session, pick: { session.holdKey(pick, seconds: hold) },
                 move: move.map { name in { session.holdKey(name, seconds: hold) } }, terminal: terminal)
    }

    /// Types `text` by scanning, with the switches `pick` and `move` pressed as the caller makes them.
    static func scan(_ text: String, session: XSession, pick: () -> Void, move: (() -> Void)?, terminal: Terminal) throws {
        for character in text {
            let wanted = character == " " ? "space" : String(character)
            var picks = 0
            let started = Date()
            let before = terminal.bytes.count
            while Date().timeIntervalSince(started) < 20 {
                let result = try session.run(keypanePath, ["status"])
                let fields = ControlEndToEndTests.fields(result.output)
                let scanned = (fields["scanned"] ?? "").split(separator: " ").map { $0.lowercased() }
                // Auto scanning: a highlight about to move on is let go, as a person who sees it is late
                // would (on a loaded machine the pick could land on the next one: two deletes for "o").
                if let step = fields["scan-step"].flatMap(Double.init), step < 0.25 {
                    usleep(useconds_t(step * 1_000_000) + 20_000)
                    continue
                }
                if scanned.contains(wanted) {
                    pick()
                    picks += 1
                    if scanned == [wanted] {
                        if waitUntil(timeout: 1, { terminal.bytes.count > before }) { break }
                        continue
                    }
                    usleep(50_000)
                } else if let move {
                    move()
                    usleep(20_000)
                } else {
                    usleep(40_000)
                }
            }
            #expect(picks >= 2, "\(wanted.debugDescription) was not reached")
        }
    }

    @Test func oneSwitchTypesHelloWorldByAutoScanning() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "auto",
                                                                      "--scan-interval", "0.7"], plainText: false)
        try Self.scan("hello, world", session: session, pick: "F12", move: nil, terminal: terminal)
        // The keyboard's own capital; the switch's key never reached xterm (it would send ESC [24~).
        expectArrived(terminal, "Hello, world", "auto scanning")
        usleep(300_000)
        #expect(terminal.bytes == Data("Hello, world".utf8))
        // Idle rounds pause it: no highlight.
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        #expect(session.keysDown().isEmpty)
    }

    @Test func twoSwitchesTypeASentenceByStepScanning() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "step",
                                                                      "--scan-switch", "F11,F12"], plainText: false)
        try Self.scan("hello world", session: session, pick: "F12", move: "F11", terminal: terminal)
        expectArrived(terminal, "Hello world", "step scanning")
        usleep(300_000)
        #expect(terminal.bytes == Data("Hello world".utf8))
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }

    /// However long a switch is held (an instant, a person's 0.15 s, a second) and whether it is a key or a
    /// mouse button, each press moves or picks and the pick types: the keystroke waits until the switch is
    /// up, as a key sent while the switch's grab is active would go to the grab, not to the window.
    @Test(arguments: [(0.0, false), (0.15, false), (1.0, false), (0.0, true), (0.15, true), (1.0, true)])
    func aSwitchTypesHoweverLongItIsHeld(seconds: Double, buttons: Bool) throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let switches = buttons ? "button:8,button:9" : "F11,F12"
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "step",
                                                                      "--scan-switch", switches])
        func press(_ index: Int) {
            if buttons {
                session.holdButton(UInt32(8 + index), seconds: seconds)
            } else {
                session.holdKey(index == 0 ? "F11" : "F12", seconds: seconds)
            }
        }
        // Letters without accents: a second's hold on one with accents opens them, as it should.
        try Self.scan("ht", session: session, pick: { press(1) }, move: { press(0) }, terminal: terminal)
        expectArrived(terminal, "ht", "switches held \(seconds) s (\(switches))")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
        #expect(session.keysDown().isEmpty)
    }

    /// Holding the switch on e opens its accents, which are scanned in turn: é is picked.
    @Test func holdingTheSwitchPicksAnAccent() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "step",
                                                                      "--scan-switch", "F11,F12"])
        func scanned() throws -> [String] {
            (ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output)["scanned"] ?? "")
                .split(separator: " ").map(String.init)
        }
        for _ in 0..<40 where try scanned() != ["e"] {
            session.holdKey(try scanned().contains("e") ? "F12" : "F11", seconds: 0.15)
        }
        #expect(try scanned() == ["e"])
        session.holdKey("F12", seconds: 0.7)
        #expect(waitUntil { (try? scanned()) == ["e"] })
        for _ in 0..<10 where try scanned() != ["é"] { session.holdKey("F11", seconds: 0.15) }
        session.holdKey("F12", seconds: 0.15)
        expectArrived(terminal, "é", "an accent by scanning")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }

    /// A paused auto scan (idle rounds) highlights nothing until the switch; a hidden keyboard comes back
    /// with the switch.
    @Test func idleRoundsPauseAndTheSwitchWakesIt() throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "auto",
                                                                      "--scan-interval", "0.2", "--scan-cycles", "1"])
        func scanned() throws -> String? { ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output)["scanned"] }
        #expect(waitUntil { (try? scanned()) == "" })
        session.key("F12")
        #expect(waitUntil { (try? scanned())?.isEmpty == false })
        _ = try session.run(keypanePath, ["hide"])
        #expect(waitUntil { !ControlEndToEndTests.visible(session) })
        session.key("F12")
        #expect(waitUntil { ControlEndToEndTests.visible(session) })
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }
}
