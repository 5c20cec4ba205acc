import Foundation
import Testing

/// A key pressed and let go on a real X server: the press shows its balloon (the same the second time,
/// when it is blended from its kept image), and the release puts back the
/// very pixels of the first frame (a key let go is a copy of its kept image, the first frame was drawn
/// in place), whether the key was held, slid from, or typed at a person's pace on a busy machine.
@Suite(.serialized) struct KeyDrawingEndToEndTests {
    typealias Pixels = [UInt8]

    static func settled(_ session: XSession, _ keyboard: LiveKeyboard) -> Pixels {
        FontRecordEndToEndTests.settledPixels(session, keyboard)
    }

    /// How many bytes of two pictures of the window differ (the pictures themselves are too long to print).
    static func differing(_ a: Pixels, _ b: Pixels) -> Int {
        zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
    }

    @Test func aKeyLetGoLooksAsItDidBeforeItsPress() throws {
        let session = try XSession()
        defer { session.stop() }
        // No suggestion bar: typed words would change it.
        let keyboard = try LiveKeyboard(session: session, arguments: ["--no-suggestions"])
        defer { _ = keyboard.terminate() }
        let first = Self.settled(session, keyboard)
        #expect(!first.isEmpty)
        let letters = try keyboard.geometry(type: "default", layer: nil)
        let w = try #require(letters.key(label: "w")), e = try #require(letters.key(label: "e"))

        // Held: the balloon shows above the key while the finger is down.
        session.press(x: keyboard.frame.x + e.centre.0, y: keyboard.frame.y + e.centre.1)
        let held = Self.settled(session, keyboard)
        #expect(Self.differing(held, first) > 0, "no balloon while the key is held")
        session.release()
        #expect(Self.differing(Self.settled(session, keyboard), first) == 0, "a held key let go")
        // Held again: the balloon, blended from its kept image this time, has cairo's very pixels.
        session.press(x: keyboard.frame.x + e.centre.0, y: keyboard.frame.y + e.centre.1)
        #expect(Self.differing(Self.settled(session, keyboard), held) == 0, "a balloon shown a second time")
        session.release()
        #expect(Self.differing(Self.settled(session, keyboard), first) == 0, "a key held twice let go")

        // A finger that lands on one key and slides to the next: the balloon follows it.
        session.press(x: keyboard.frame.x + w.centre.0, y: keyboard.frame.y + w.centre.1)
        usleep(120_000)
        session.move(x: keyboard.frame.x + e.centre.0, y: keyboard.frame.y + e.centre.1)
        usleep(120_000)
        session.release()
        #expect(Self.differing(Self.settled(session, keyboard), first) == 0, "a slide from one key to the next")

        // A word typed at a person's pace, each key held a moment, with two busy loops on the machine.
        let busy = try BusyLoops()
        defer { busy.stop() }
        for label in ["w", "e", "e", "w"] {
            keyboard.tap(try #require(letters.key(label: label)), hold: 0.08)
            usleep(150_000)
        }
        #expect(Self.differing(Self.settled(session, keyboard), first) == 0, "a word typed on a busy machine")
    }
}
