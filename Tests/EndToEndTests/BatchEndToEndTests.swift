import Foundation
import Testing

/// Input read late, in a batch, as when the keyboard was busy drawing: handled in the order it happened.
@Suite struct BatchEndToEndTests {
    /// Two slides, each from one key to the next, made while the keyboard is stopped (SIGSTOP) and read at
    /// once when it goes on: each types the key it ends on. (The loop took the batch's last motion for the
    /// first, past the release and press between them: "fd" arrived, and a held emoji chose another
    /// emoji's skin tone.)
    @Test func slidesReadInABatchTypeTheKeysTheyEndOn() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        func point(_ label: String) throws -> (Int, Int) {
            let (x, y) = try #require(letters.key(label: label), "\(label)").centre
            return (keyboard.frame.x + x, keyboard.frame.y + y)
        }
        let (a, s, d, f) = (try point("a"), try point("s"), try point("d"), try point("f"))
        let pid = keyboard.process.processIdentifier
        kill(pid, SIGSTOP)
        for (from, to) in [(a, s), (d, f)] {
            session.press(x: from.0, y: from.1)
            session.move(x: to.0, y: to.1)
            session.release()
        }
        kill(pid, SIGCONT)
        expectArrived(terminal, "sf", "two slides read in one batch")
        usleep(300_000)
        #expect(terminal.bytes == Data("sf".utf8))
        let (status, messages) = keyboard.terminate()
        #expect(status == 0 && messages.isEmpty, "\(messages)")
    }
}
