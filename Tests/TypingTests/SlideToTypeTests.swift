import KeyboardModel
import TestSupport
import Testing
import Typing
import Words

extension SuggestionHarness {
    /// A finger slides through the word's keys (a stroke from `StrokeGenerator`, a point every 10 ms, as a
    /// touchscreen reports), lifts, and the host decodes the stroke.
    mutating func slide(_ word: String, jitter: Double = 0, seed: UInt64 = 1) {
        let plan = harness.engine.keyPlan()
        var random = Fuzz(seed: seed)
        let centres = word.lowercased().utf16.compactMap { plan.keys[$0] }.map { (x: $0.x, y: $0.y) }
        let points = StrokeGenerator(jitter: jitter).stroke(through: centres, keyWidth: plan.keyWidth, using: &random)
        settle(harness.send(.began, x: points[0].x, y: points[0].y))
        for point in points.dropFirst() {
            harness.now += 0.01
            settle(harness.send(.moved, x: point.x, y: point.y))
        }
        harness.now += 0.01
        settle(harness.send(.ended, x: points.last!.x, y: points.last!.y))
        harness.now += 0.2
    }

    /// A finger slides from one key's centre to another's in six steps, as a person corrects a tap or
    /// slides a two-letter word, and lifts.
    /// From one key's centre toward another's, `fraction` of the way (1: to its centre).
    mutating func slideAcross(from: String, to: String, fraction: Double = 1) {
        let (fx, fy) = harness.centre(of: from), (cx, cy) = harness.centre(of: to)
        let (tx, ty) = (fx + (cx - fx) * fraction, fy + (cy - fy) * fraction)
        settle(harness.send(.began, x: fx, y: fy))
        for step in 1...6 {
            harness.now += 0.02
            settle(harness.send(.moved, x: fx + (tx - fx) * Double(step) / 6, y: fy + (ty - fy) * Double(step) / 6))
        }
        settle(harness.send(.ended, x: tx, y: ty))
    }
}

/// Slide to type in the engine: telling a stroke from a tap, typing the stroke's word, the bar, delete.
@Suite struct SlideToTypeTests {
    static func harness() throws -> SuggestionHarness? { try CompletionTests.englishHarness() }

    @Test func strokesTypeWordsWithSpacesBetween() throws {
        guard var s = try Self.harness() else { return }
        s.slide("hello")
        #expect(s.text == "hello")
        s.slide("world")
        #expect(s.text == "hello world")
        // A tapped space and a stroke: no second space.
        s.type(" ")
        s.slide("again", jitter: 0.15)
        #expect(s.text == "hello world again")
    }

    @Test func aStrokeTypesNoLettersOfItsOwnAndShowsNoBalloons() throws {
        guard var s = try Self.harness() else { return }
        let (x, y) = s.harness.centre(of: "q"), (px, py) = s.harness.centre(of: "p")
        s.settle(s.harness.send(.began, x: x, y: y))
        var sawTrail = false
        for step in 1...20 {
            s.harness.now += 0.01
            let update = s.harness.send(.moved, x: x + (px - x) * Double(step) / 20, y: y + (py - y) * Double(step) / 20)
            sawTrail = sawTrail || update.trailChanged
            s.settle(update)
        }
        #expect(sawTrail)
        #expect(s.harness.engine.state.popups.isEmpty, "no balloon during a stroke")
        #expect(s.harness.engine.state.pressed.isEmpty, "no key pressed during a stroke")
        #expect(!s.harness.engine.state.trail.isEmpty)
        #expect(s.harness.actions.isEmpty, "nothing typed before the lift")
        // The trail fades after the lift, at the display's rate, and then the timers stop.
        s.settle(s.harness.send(.ended, x: px, y: py))
        s.harness.wait(1)
        #expect(s.harness.engine.state.trail.isEmpty)
        #expect(s.harness.engine.nextDeadline == nil)
    }

    /// Within a word, a slide to a neighbouring key, beside or across the corner to the row below (1.4 key
    /// pitches away), is a corrected tap: the key it ends on is typed, with no trail.
    @Test func aSlideToANeighbouringKeyWithinAWordIsACorrectedTap() throws {
        for (from, to) in [("g", "h"), ("a", "z"), ("b", "g"), ("a", "s"), ("w", "e")] {
            guard var s = try Self.harness() else { return }
            s.type("t")
            s.slideAcross(from: from, to: to)
            #expect(s.text == "t" + to, "\(from) to \(to)")
            #expect(s.harness.engine.state.trail.isEmpty)
        }
    }

    /// At a word's start the same slide may be a two-letter word's stroke: it types the word where a common
    /// one runs from key to key ("as", "we", after a space or a stroke's word too), and the key it ends on
    /// where none does, as a corrected tap.
    @Test func aSlideToANeighbouringKeyAtAWordsStartTypesAWordOnlyWhereOneFits() throws {
        for (from, to, typed) in [("a", "s", "as"), ("w", "e", "we"), ("g", "h", "h"), ("a", "z", "z"), ("b", "g", "g")] {
            guard var s = try Self.harness() else { return }
            s.slideAcross(from: from, to: to)
            #expect(s.text == typed, "\(from) to \(to)")
            // Drawn as the tap it may be: the press moves to the key under the finger, and no trail.
            #expect(s.harness.engine.state.trail.isEmpty)
        }
        guard var s = try Self.harness() else { return }
        s.type("so ")
        s.slideAcross(from: "w", to: "e")
        s.slide("can")
        s.type(" ")
        s.slideAcross(from: "g", to: "h")
        #expect(s.text == "so we can h")
    }

    /// A two-letter word's stroke is often short: the finger stops as soon as it is on the second key, two
    /// thirds of a pitch from where it began. A finger that rolls a little while it taps (a third of a
    /// pitch, still on its key) types that key.
    @Test func aShortSlideOntoANeighbourAtAWordsStartMayBeAWordAndARollingTapIsATap() throws {
        for (from, to, fraction, typed) in [("a", "s", 0.65, "as"), ("w", "e", 0.65, "we"), ("a", "s", 0.3, "a"),
                                            ("g", "h", 0.3, "g"), ("g", "h", 0.65, "h")] {
            guard var s = try Self.harness() else { return }
            s.type("so ")
            s.slideAcross(from: from, to: to, fraction: fraction)
            #expect(s.text == "so " + typed, "\(from) to \(to), \(fraction) of the way")
        }
    }

    /// Two slides to a neighbour read in one batch (the keyboard was busy), the second before the first's
    /// words came: the first is typed as its tap before the second begins, and nothing is lost.
    @Test func slidesReadInABatchLoseNothing() throws {
        guard var s = try Self.harness() else { return }
        var updates: [Update] = []
        for (from, to) in [("a", "s"), ("d", "f")] {
            let (fx, fy) = s.harness.centre(of: from), (tx, ty) = s.harness.centre(of: to)
            updates.append(s.harness.send(.began, x: fx, y: fy))
            for step in 1...6 {
                s.harness.now += 0.01
                updates.append(s.harness.send(.moved, x: fx + (tx - fx) * Double(step) / 6, y: fy + (ty - fy) * Double(step) / 6))
            }
            updates.append(s.harness.send(.ended, x: tx, y: ty))
        }
        for update in updates { s.settle(update) }
        #expect(s.text == "sf")
    }

    /// A tap read in the same batch as a stroke's lift (the keyboard was busy) waits for the stroke's word:
    /// "hello" then space gives "hello ", not " hello". A stroke whose words never come holds nothing for
    /// long: the tap goes on after a second.
    @Test func aTapReadWithAStrokesLiftComesAfterItsWord() throws {
        guard var s = try Self.harness() else { return }
        let plan = s.harness.engine.keyPlan()
        var random = Fuzz(seed: 1)
        let centres = "hello".utf16.compactMap { plan.keys[$0] }.map { (x: $0.x, y: $0.y) }
        let points = StrokeGenerator(jitter: 0).stroke(through: centres, keyWidth: plan.keyWidth, using: &random)
        func strokeAndTap(_ s: inout SuggestionHarness, tap label: String) -> [Update] {
            var updates = [s.harness.send(.began, x: points[0].x, y: points[0].y)]
            for point in points.dropFirst() {
                s.harness.now += 0.01
                updates.append(s.harness.send(.moved, x: point.x, y: point.y))
            }
            updates.append(s.harness.send(.ended, x: points.last!.x, y: points.last!.y))
            let (x, y) = s.harness.centre(of: label)
            s.harness.now += 0.03
            updates.append(s.harness.send(.began, x: x, y: y))
            s.harness.now += 0.03
            updates.append(s.harness.send(.ended, x: x, y: y))
            return updates
        }
        let space = s.harness.engine.geometry.keys.first { $0.function == .text(" ") }?.name ?? "space"
        for update in strokeAndTap(&s, tap: space) { s.settle(update) }
        #expect(s.text == "hello ")

        guard var t = try Self.harness() else { return }
        _ = strokeAndTap(&t, tap: "a")
        #expect(t.text == "", "the tap waits for the stroke's words")
        t.harness.wait(1.5)
        #expect(t.text == "a")
    }

    /// A short word's stroke may end a key from where it began ("was": w, a, s): its travel along the
    /// path makes it a stroke. A finger resting on a key and trembling a few pixels travels nowhere.
    @Test func aStrokeThatTurnsBackIsAStrokeAndATremblingTapIsNot() throws {
        guard var s = try Self.harness() else { return }
        s.slide("was")
        #expect(s.text == "was")
        guard var t = try Self.harness() else { return }
        let (gx, gy) = t.harness.centre(of: "g")
        t.settle(t.harness.send(.began, x: gx, y: gy))
        for step in 0..<35 {
            t.harness.now += 0.01
            t.settle(t.harness.send(.moved, x: gx + (step % 2 == 0 ? 2 : -2), y: gy + (step % 3 == 0 ? 2 : -1)))
        }
        t.settle(t.harness.send(.ended, x: gx, y: gy))
        #expect(t.text == "g")
        #expect(t.harness.engine.state.trail.isEmpty)
    }

    @Test func aLongPressStillOpensAccentsAndAStrokeAfterItDoesNot() throws {
        guard var s = try Self.harness() else { return }
        let (ex, ey) = s.harness.centre(of: "e")
        s.settle(s.harness.send(.began, x: ex, y: ey))
        s.harness.wait(0.5)
        guard case .alternates(_, let options, _)? = s.harness.engine.state.popups.last else {
            Issue.record("no accents: \(s.harness.engine.state.popups)")
            return
        }
        // Sliding along the accents chooses one; it is no stroke.
        let (px, _) = s.harness.centre(of: "p")
        for step in 1...10 {
            s.harness.now += 0.02
            s.settle(s.harness.send(.moved, x: ex + (px - ex) * Double(step) / 40, y: ey - 40))
        }
        #expect(s.harness.engine.state.trail.isEmpty)
        s.settle(s.harness.send(.ended, x: ex + (px - ex) / 4, y: ey - 40))
        #expect(options.contains(s.text), "\(s.text) of \(options)")
    }

    @Test func deleteRightAfterAStrokeTakesTheWordWhole() throws {
        guard var s = try Self.harness() else { return }
        s.slide("hello")
        s.slide("there")
        #expect(s.text == "hello there")
        s.tap("delete")
        #expect(s.text == "hello ")
        // Then delete goes by characters again.
        s.tap("delete")
        #expect(s.text == "hello")
    }

    @Test func theBarOffersTheNextBestAndASlotReplacesTheWord() throws {
        guard var s = try Self.harness() else { return }
        // From between "i" and "o" to "f": "of" or "if".
        let plan = s.harness.engine.keyPlan()
        let i = plan.keys[UInt16(UInt8(ascii: "i"))]!, o = plan.keys[UInt16(UInt8(ascii: "o"))]!, f = plan.keys[UInt16(UInt8(ascii: "f"))]!
        s.settle(s.harness.send(.began, x: (i.x + o.x) / 2, y: i.y))
        for step in 1...12 {
            s.harness.now += 0.01
            let t = Double(step) / 12
            s.settle(s.harness.send(.moved, x: (i.x + o.x) / 2 + (f.x - (i.x + o.x) / 2) * t, y: i.y + (f.y - i.y) * t))
        }
        s.settle(s.harness.send(.ended, x: f.x, y: f.y))
        let typed = s.text
        let bar = s.bar.map(\.text)
        #expect(["of", "if"].contains(typed), "\(typed)")
        let other = typed == "of" ? "if" : "of"
        let slot = try #require(bar.firstIndex(of: other), "\(bar)")
        s.tap("suggestion \(slot + 1)")
        #expect(s.text == other)
        #expect(s.bar.map(\.text).contains(typed), "the word replaced is offered back: \(s.bar)")
        // Still a stroke's word: delete takes it whole.
        s.tap("delete")
        #expect(s.text == "")
    }

    @Test func aStrokeStartsASentenceWithACapitalAndIsLearned() throws {
        guard var s = try Self.harness() else { return }
        s.harness.engine.show(layout: "default", returnKey: .default, traits: .init(autocapitalization: .sentences))
        s.slide("hello")
        #expect(s.text == "Hello")
        #expect(s.words.contains { if case .typed("hello", _, _, _) = $0 { true } else { false } })
    }

    @Test func noStrokesInPasswordsNorWhenTurnedOff() throws {
        guard var s = try Self.harness() else { return }
        s.harness.engine.show(layout: "default", returnKey: .default, traits: .init(secureEntry: true))
        let (qx, qy) = s.harness.centre(of: "q"), (px, py) = s.harness.centre(of: "p")
        s.settle(s.harness.send(.began, x: qx, y: qy))
        for step in 1...20 {
            s.harness.now += 0.01
            s.settle(s.harness.send(.moved, x: qx + (px - qx) * Double(step) / 20, y: qy + (py - qy) * Double(step) / 20))
        }
        s.settle(s.harness.send(.ended, x: px, y: py))
        #expect(s.text == "p", "a slide in a password is a corrected tap")
        #expect(s.words.isEmpty)

        guard var t = try Self.harness() else { return }
        t.harness.engine.slideToTypeEnabled = false
        t.slide("hello")
        #expect(t.text == "o")
    }

    /// A second finger landing during a stroke types its key and leaves the stroke going.
    @Test func aSecondFingerCancelsNothing() throws {
        guard var s = try Self.harness() else { return }
        let (hx, hy) = s.harness.centre(of: "h"), (ox, oy) = s.harness.centre(of: "o")
        s.settle(s.harness.send(.began, x: hx, y: hy, touch: 1))
        for step in 1...10 {
            s.harness.now += 0.01
            s.settle(s.harness.send(.moved, x: hx + (ox - hx) * Double(step) / 20, y: hy + (oy - hy) * Double(step) / 20, touch: 1))
        }
        s.settle(s.harness.send(.began, "space", touch: 2))
        s.settle(s.harness.send(.ended, "space", touch: 2))
        for step in 11...20 {
            s.harness.now += 0.01
            s.settle(s.harness.send(.moved, x: hx + (ox - hx) * Double(step) / 20, y: hy + (oy - hy) * Double(step) / 20, touch: 1))
        }
        s.settle(s.harness.send(.ended, x: ox, y: oy, touch: 1))
        #expect(s.text.hasPrefix(" "), "\(s.text)")
        #expect(s.text.count > 2, "the stroke typed a word: \(s.text)")
    }

    /// Every language with a dictionary: a stroke through the keys that hold a word's accents types the
    /// word with them, in the dictionary's case. German has a key of its own for ü, and ß held on s:
    /// "grüse" traced gives "Grüße", "strase" gives "Straße".
    @Test func strokesTypeAccentedWordsOfOtherLanguages() throws {
        var s = try LanguageSuggestionTests.harness(["de"])
        s.slide("grüse")
        #expect(s.text == "Grüße", "\(s.text)")
        s.slide("strase")
        #expect(s.text == "Grüße Straße", "\(s.text)")
        #expect(s.wordLanguage == "de")
    }

    /// A word the user taught, which the dictionary lacks, comes from a stroke too.
    @Test func aLearnedWordComesFromAStroke() throws {
        guard var s = try Self.harness() else { return }
        s.slide("keypane")
        #expect(s.text != "keypane", "not a word before it is learned: \(s.text)")
        guard var taught = try Self.harness() else { return }
        for _ in 0..<3 { taught.user.learn("keypane", after: nil) }
        taught.slide("keypane")
        #expect(taught.text == "keypane", "\(taught.text)")
    }

    /// Another keyboard shown between a stroke's lift and its answer: the stroke is dropped, not typed
    /// later when a keyboard with a bar comes back.
    @Test func aStrokeLeftForAnotherKeyboardIsNotTypedLater() throws {
        guard var s = try Self.harness() else { return }
        let plan = s.harness.engine.keyPlan()
        let h = plan.keys[UInt16(UInt8(ascii: "h"))]!, o = plan.keys[UInt16(UInt8(ascii: "o"))]!
        s.harness.send(.began, x: h.x, y: h.y)
        for step in 1...10 {
            s.harness.now += 0.01
            s.harness.send(.moved, x: h.x + (o.x - h.x) * Double(step) / 10, y: h.y + (o.y - h.y) * Double(step) / 10)
        }
        s.harness.send(.ended, x: o.x, y: o.y)
        #expect(s.harness.engine.suggestionRequest()?.stroke != nil, "the stroke waits for its words")
        s.harness.engine.show(layout: "url", returnKey: .default)
        s.harness.engine.show(layout: "default", returnKey: .default)
        #expect(s.harness.engine.suggestionRequest()?.stroke == nil)
        s.type("a")
        #expect(s.text == "a", "\(s.text)")
    }
}
