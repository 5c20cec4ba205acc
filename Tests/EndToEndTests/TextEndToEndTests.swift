import Foundation
import Testing

/// Taps the keys for a text on the default keyboard, lowercase: capitals are the keyboard's to make. Letters
/// and , . come from the letters layer, the rest from the numbers layer. `hold`: how long each key is held,
/// and as long again before the next, as a person types.
func tapText(_ text: String, on keyboard: LiveKeyboard, hold: Double = 0) throws {
    let letters = try keyboard.geometry(type: "default", layer: "letters")
    let numbers = try keyboard.geometry(type: "default", layer: "numbers")
    var onNumbers = false
    func tap(_ key: GeometryKey) {
        keyboard.tap(key, hold: hold)
        if hold > 0 { usleep(useconds_t(hold * 1_000_000)) }
    }
    for character in text {
        let wanted = String(character)
        if !(onNumbers && numbers.keys.contains { $0.text == wanted }),
           let key = letters.keys.first(where: { $0.text == wanted }) {
            if onNumbers { tap(numbers.key(action: "layer:letters")!) }
            onNumbers = false
            tap(key)
        } else {
            let key = try #require(numbers.keys.first { $0.text == wanted }, "no key for \(wanted.debugDescription)")
            if !onNumbers { tap(letters.key(action: "layer:numbers")!) }
            onNumbers = true
            tap(key)
        }
    }
    if onNumbers { tap(numbers.key(action: "layer:letters")!) }
}

@Suite(.serialized) struct TextEndToEndTests {
    /// Prose on the default keyboard, into a real client: capitals at the start and after a sentence, the
    /// double-space period, curly quotes, the em dash and its undo by an immediate delete; a click outside
    /// the keyboard and a change of window each start the input afresh.
    @Test func proseComesOutAsOnIOS() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"], plainText: false)
        keyboard.extra = ["--no-globe"]
        try tapText("hello  world. it's -- fine", on: keyboard)
        var expected = "Hello. World. It’s — fine"
        #expect(terminal.waitFor(text: expected) == expected)

        // An immediate delete restores what was typed.
        let delete = try keyboard.geometry(type: "default", layer: "letters").keys.first { $0.keysym == "BackSpace" }!
        try tapText(" --", on: keyboard)
        keyboard.tap(delete)
        expected += " --"
        #expect(terminal.waitFor(text: expected) == expected)

        // A click outside the keyboard: the caret may have moved, so input starts afresh (with a capital).
        let field = session.frame(terminal.window)
        session.tap(x: field.x + field.width / 2, y: field.y + field.height / 2)
        usleep(200_000)
        try tapText("x", on: keyboard)
        expected += "X"
        #expect(terminal.waitFor(text: expected) == expected)

        // Another window gets the focus: afresh again.
        try tapText("y", on: keyboard)
        expected += "y"
        #expect(terminal.waitFor(text: expected) == expected)
        let second = try Terminal(session: session)
        usleep(200_000)
        try tapText("ok", on: keyboard)
        #expect(second.waitFor(text: "Ok") == "Ok")
        #expect(terminal.text == expected)
        #expect(!session.focusedWindowFamily().contains(keyboard.window))
    }

    /// The click outside as a person gives it: a word typed at a person's pace (each key held a moment) with
    /// two busy loops on the machine, then a click into the field held as a finger holds it. The next letter
    /// starts afresh, with a capital.
    @Test func aClickHeldOutsideOnABusyMachineStartsAfresh() throws {
        let typing = try ProseTyping()
        defer { typing.session.stop() }
        let busy = try BusyLoops()
        defer { busy.stop() }
        try typing.type("so it")
        #expect(typing.terminal.waitFor(text: "So it") == "So it")
        typing.clickInTheField()
        usleep(200_000)
        try typing.type("x")
        #expect(typing.terminal.waitFor(text: "So itX") == "So itX")
    }

    /// A click outside in the middle of typing, with no tap after it: the keyboard waits for clicks anywhere
    /// only while it is not being typed on (`OutsidePresses`), and this one is read at the latest when the
    /// typing pauses; the keyboard then shows the capital of a fresh start.
    @Test func aClickOutsideWhileTypingIsSeenWithoutAnotherTap() throws {
        let typing = try ProseTyping()
        defer { typing.session.stop() }
        try typing.type("so it")
        #expect(typing.terminal.waitFor(text: "So it") == "So it")
        let shift = {
            ControlEndToEndTests.fields((try? typing.session.run(keypanePath, ["status"]).output) ?? "")["shift"]
        }
        #expect(shift() == "off")
        typing.clickInTheField()
        #expect(waitUntil(timeout: 5) { shift() == "on" }, "the click outside was not seen")
    }

    /// Switched off on the command line, or in secure entry, every key types what it shows.
    @Test func switchedOffEveryKeyTypesWhatItShows() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        keyboard.extra = ["--no-globe"]
        try tapText("hello  world. it's \"a\" -- fine", on: keyboard)
        var expected = "hello  world. it's \"a\" -- fine"
        #expect(terminal.waitFor(text: expected) == expected)
        #expect(keyboard.terminate().0 == 0)

        // Secure entry, on the prose keyboard: no capitals, corrections or smart punctuation either.
        let secure = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--secure"],
                                      plainText: false)
        // A password has no suggestion bar: the keys take its room.
        secure.extra = ["--no-globe", "--no-suggestions"]
        try tapText(" pass  it's -- x", on: secure)
        expected += " pass  it's -- x"
        #expect(terminal.waitFor(text: expected) == expected)
    }
}

/// A terminal and the default keyboard with its text behaviours on, typed on as a person types.
private struct ProseTyping {
    let session: XSession
    let terminal: Terminal
    let keyboard: LiveKeyboard
    let letters: Geometry

    init() throws {
        session = try XSession()
        do {
            terminal = try Terminal(session: session)
            keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"], plainText: false)
            keyboard.extra = ["--no-globe"]
            letters = try keyboard.geometry(type: "default", layer: "letters")
        } catch {
            session.stop()
            throw error
        }
    }

    /// Each key held a moment, 120 ms apart.
    func type(_ text: String) throws {
        for character in text {
            keyboard.tap(try #require(letters.keys.first { $0.text == String(character) }), hold: 0.08)
            usleep(120_000)
        }
    }

    /// A click into the terminal, held as a finger holds it.
    func clickInTheField() {
        let field = session.frame(terminal.window)
        session.tap(x: field.x + field.width / 2, y: field.y + field.height / 2, hold: 0.15)
    }
}
