import Foundation
import TestSupport
import Testing

/// Editing by touch on the live keyboard: the space bar as a trackpad (arrow keys into xterm's shell
/// line; in a GTK entry read back over the accessibility bus, with a selection cut and pasted by real
/// touches), a held delete by words, and text replacement; none of it in a password field.
@Suite(.serialized) struct EditingEndToEndTests {
    /// The mouse holds the space bar 0.4 s, then slides left `keys` key widths in 0.1-key steps every
    /// 25 ms (slowly: a character a third of a key), and lifts.
    static func trackpadLeft(_ keys: Double, keyboard: LiveKeyboard) throws {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let width = Double(try #require(letters.key(label: "q")).width) * 1.15
        let (x, y) = (keyboard.frame.x + space.centre.0, keyboard.frame.y + space.centre.1)
        keyboard.session.press(x: x, y: y)
        usleep(400_000)
        for step in 1...Int(keys * 10) {
            keyboard.session.move(x: x - Int(Double(step) * 0.1 * width), y: y)
            usleep(25_000)
        }
        keyboard.session.release()
        usleep(100_000)
    }

    @Test func theTrackpadSendsArrowsToTheShellLineAndTypesNothing() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try SuggestionsEndToEndTests.start(session)
        keyboard.extra = ["--no-globe"]
        try Self.trackpadLeft(2, keyboard: keyboard)
        let left = "\u{1b}[D"
        _ = waitUntil(timeout: 3) { String(decoding: terminal.bytes, as: UTF8.self).components(separatedBy: left).count > 3 }
        let arrived = String(decoding: terminal.bytes, as: UTF8.self)
        #expect(arrived.components(separatedBy: left).count - 1 >= 4, "\(arrived.debugDescription)")
        #expect(!arrived.contains(" "), "nothing typed: \(arrived.debugDescription)")
        _ = keyboard.terminate()
    }

    /// "omw" and space: "On my way! "; a delete right after brings "omw" back. Held, delete then goes
    /// by characters and then by words.
    @Test func aShortcutBecomesItsPhraseAndDeleteHeldGoesByWords() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try SuggestionsEndToEndTests.start(session, ["--autocapitalization", "none"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        try tapText("omw", on: keyboard)
        _ = SuggestionsEndToEndTests.waitForBar(session) { $0.contains("[On my way!]") }
        try tapText(" ", on: keyboard)
        #expect(terminal.waitFor(text: "On my way! ") == "On my way! ")
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })
        keyboard.tap(delete)
        #expect(terminal.waitFor(text: "omw") == "omw")
        try tapText(" one two three four five six seven", on: keyboard)
        #expect(terminal.waitFor(text: "omw one two three four five six seven") == "omw one two three four five six seven")
        // Held 1.7 s: the press and ten repeats take 11 characters ("ix seven" and more), then words.
        keyboard.tap(delete, hold: 1.7)
        let left = terminal.waitFor(text: "omw one two three ", timeout: 3)
        #expect(["omw one two three four ", "omw one two three ", "omw one two "].contains(left), "\(left.debugDescription)")
        _ = keyboard.terminate()
    }
}
