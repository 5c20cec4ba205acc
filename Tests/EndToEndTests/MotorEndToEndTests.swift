import Foundation
import Testing

/// Settings for hands that tremble, bounce or move slowly, on the live keyboard typing into xterm: what they
/// drop, and no more.
@Suite(.serialized) struct MotorEndToEndTests {
    @Test func slowKeysTypeOnlyKeysHeldLongEnough() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--slow-keys", "0.3"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        func key(_ label: String) throws -> GeometryKey { try #require(letters.key(label: label), "\(label)") }
        keyboard.tap(try key("a"))                  // a brush: nothing
        keyboard.tap(try key("b"), hold: 0.5)       // held: b
        keyboard.tap(try key("c"), hold: 0.1)       // too short: nothing
        keyboard.tap(try key("d"), hold: 0.5)
        expectArrived(terminal, "bd", "slow keys")
        usleep(300_000)
        #expect(terminal.bytes == Data("bd".utf8))
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }

    @Test func bounceKeysDropTheBounceOnly() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--bounce-keys", "0.6"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        func key(_ label: String) throws -> GeometryKey { try #require(letters.key(label: label), "\(label)") }
        keyboard.tap(try key("a"))
        keyboard.tap(try key("a"))                  // a bounce: dropped
        keyboard.tap(try key("s"))                  // another key: typed
        usleep(700_000)
        keyboard.tap(try key("s"))                  // the same key, later: typed
        keyboard.tap(try key("d"))
        expectArrived(terminal, "assd", "bounce keys")
        usleep(300_000)
        #expect(terminal.bytes == Data("assd".utf8))
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }
}

/// Dwell, with the pointer only (XTest moves it; no button is ever pressed), into xterm.
@Suite(.serialized) struct DwellEndToEndTests {
    @Test func restingThePointerOnKeysTypesHelloWorld() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--dwell", "0.4"],
                                        plainText: false)
        keyboard.extra = ["--no-globe", "--dwell-pause"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        /// Off the keyboard, then onto the key until it is pressed: the same key twice needs the pointer to
        /// leave it in between, as a person's would.
        func rest(on label: String) throws {
            let key = try #require(letters.keys.first { $0.label == label || $0.text == label }, "\(label)")
            session.move(x: keyboard.frame.x + 5, y: keyboard.frame.y - 20)
            usleep(100_000)
            session.move(x: keyboard.frame.x + key.centre.0, y: keyboard.frame.y + key.centre.1)
            usleep(650_000)
            #expect(!session.pointer().buttonDown)
        }
        for character in "hello, world" { try rest(on: character == " " ? " " : String(character)) }
        // Paused: resting on x types nothing; resumed, z.
        try rest(on: "pause")
        try rest(on: "x")
        try rest(on: "pause")
        try rest(on: "z")
        expectArrived(terminal, "Hello, worldz", "dwell")
        // The pointer resting on z after its press types nothing more.
        usleep(1_000_000)
        #expect(terminal.bytes == Data("Hello, worldz".utf8))
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }
}
