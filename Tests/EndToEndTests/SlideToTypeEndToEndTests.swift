import Foundation
import TestSupport
import Testing

/// Slide to type on the live keyboard: strokes drawn with a real touchscreen (the inputtest driver) into
/// xterm, and with the mouse (XTest) into a GTK entry read back through the accessibility bus; a stroke
/// then delete, a bar slot in place of the word, and no stroke in a password field.
@Suite(.serialized) struct SlideToTypeEndToEndTests {
    /// A stroke through the word's keys, in screen pixels: a smooth curve through the key centres moved by
    /// a little jitter, as a finger draws it.
    static func stroke(_ word: String, on keyboard: LiveKeyboard, seed: UInt64) throws -> [(x: Int, y: Int)] {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let keys = try word.map { letter in try #require(letters.key(label: String(letter)), "no key \(letter)") }
        let centres = keys.map { (x: Double(keyboard.frame.x + $0.centre.0), y: Double(keyboard.frame.y + $0.centre.1)) }
        var random = Fuzz(seed: seed)
        return StrokeGenerator(jitter: 0.1, pointsPerSegment: 8)
            .stroke(through: centres, keyWidth: Double(keys[0].width), using: &random)
            .map { (x: Int($0.x.rounded()), y: Int($0.y.rounded())) }
    }

    /// A finger on the touchscreen draws the word's stroke at a person's pace (a point every 12 ms) and
    /// lifts.
    static func slide(_ word: String, bed: TouchEndToEndTests.Bed, seed: UInt64 = 1) throws {
        let points = try stroke(word, on: bed.keyboard, seed: seed)
        bed.touch.touch(1, .begin, x: points[0].x, y: points[0].y)
        for point in points.dropFirst() {
            usleep(12_000)
            bed.touch.touch(1, .update, x: point.x, y: point.y)
        }
        usleep(12_000)
        bed.touch.touch(1, .end, x: points.last!.x, y: points.last!.y)
        usleep(150_000)
    }

    /// The mouse drags the word's stroke with the button down.
    static func drag(_ word: String, keyboard: LiveKeyboard, seed: UInt64 = 1) throws {
        let points = try stroke(word, on: keyboard, seed: seed)
        keyboard.session.press(x: points[0].x, y: points[0].y)
        for point in points.dropFirst() {
            usleep(12_000)
            keyboard.session.move(x: point.x, y: point.y)
        }
        keyboard.session.release()
        usleep(150_000)
    }

    @Test func strokesByTouchTypeWordsIntoXterm() throws {
        let bed = try TouchEndToEndTests.Bed(arguments: ["--keyboards", "default"], plainText: false)
        defer { bed.stop() }
        try Self.slide("hello", bed: bed)
        try Self.slide("world", bed: bed, seed: 2)
        expectArrived(bed.terminal, "Hello world", "two strokes")
        // The first word of the input gets its capital. A stroke, then delete: the word goes whole.
        try Self.slide("again", bed: bed, seed: 3)
        expectArrived(bed.terminal, "Hello world again", "a third stroke")
        let delete = try #require(try bed.letters().keys.first { $0.keysym == "BackSpace" })
        let at = bed.point(delete)
        bed.touch.tap(x: at.x, y: at.y, hold: 0.06)
        #expect(bed.terminal.waitFor(text: "Hello world ") == "Hello world ", "a delete after a stroke takes its word whole")
        bed.expectFocusKept()
        bed.finish()
    }

    /// Strokes dragged with the mouse into a GTK entry, which the accessibility bus reads back: a sentence
    /// with doubled letters, a bar slot in place of a word, and no stroke in the password field.
    @Test func strokesByMouseTypeASentenceIntoAGtkEntry() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow.focusedGtkEntry(session: rig.session, bus: rig.bus)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        var seed: UInt64 = 10
        // Words of one stroke each (two letters on neighbouring keys, "we", are a tap slid to the next key).
        for word in ["you", "will", "meet", "them"] {
            try Self.drag(word, keyboard: rig.keyboard, seed: seed)
            seed += 1
        }
        #expect(app.waitFor("plain", "You will meet them") == "You will meet them")

        // The bar offers the next best words for the last stroke; a slot puts its word in place.
        let bar = SuggestionsEndToEndTests.waitForBar(rig.session) { !$0.isEmpty }
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        let alternative = try #require(bar.first, "the bar after a stroke: \(bar)")
        rig.keyboard.tap(try #require(letters.key(action: "suggestion:0")))
        let replaced = "You will meet " + alternative
        #expect(app.waitFor("plain", replaced) == replaced)

        // In the password field a slide across the letters is a corrected tap: one character, no word.
        // (Its keyboard has no bar, so the keys sit lower than the stroke was drawn for.)
        rig.click(app.centres["password"]!)
        #expect(rig.status(ManyApplicationsEndToEndTests.secure) == ManyApplicationsEndToEndTests.secure)
        try Self.drag("there", keyboard: rig.keyboard, seed: 20)
        _ = waitUntil(timeout: 3) { app.text("password")?.isEmpty == false }
        usleep(300_000)
        #expect(app.text("password")?.count == 1, "a stroke in a password field: \(app.text("password") ?? "nothing")")
        rig.finish()
    }
}
