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
