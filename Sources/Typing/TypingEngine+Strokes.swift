public import KeyboardModel
public import Words

/// A touch that may be a stroke across the keys (slide to type): its points since it went down on a
/// letter (none until it moves: a tap keeps nothing), and whether it has become a stroke.
struct StrokeTracking: Sendable {
    var points: [StrokePoint] = []
    var isStroke = false
    /// How far the press has travelled along its path, in key pitches, counted in steps of at least
    /// `strokeStep` so that a resting finger's jitter adds nothing.
    var travel = 0.0
    var lastStep: StrokePoint?
    /// The farthest it has been from where it went down, in key pitches.
    var reach = 0.0
}

/// A stroke lifted, waiting for the decoder: its points, when it ended, and whether it was short (a slide
/// to a neighbouring key, which types that key when it means no word).
struct PendingStroke: Sendable {
    var points: [StrokePoint]
    var time: Double
    var short = false
}

/// Slide to type (TypingEngine's part): a press that travels across the letters is a stroke, not a
/// corrected tap; it leaves a trail, and once lifted the worker decodes it. The best word is typed (after
/// a space when a word came just before, so that strokes need no space between them), the next best fill
/// the bar, and a delete right after takes the whole word back.
extension TypingEngine {
    /// How far (in key pitches) from where it went down a press must travel to be a stroke. A slide to a
    /// neighbouring key, beside, above or across a corner (the keys of the row below sit a whole key to the
    /// right: 1.4 pitches), stays a corrected tap.
    static let strokeDistance = 1.5
    /// Or how far along its path: a short word's stroke turns back near where it began ("was": w, a, s),
    /// and a slide to a neighbour travels one pitch.
    static let strokeTravel = 1.7
    /// At a word's start (no letter of it tapped yet: after a space, a stroke's word, or text read from the
    /// field), a slide this far to a neighbouring key may be a two-letter word's stroke ("as", "we"). It is
    /// drawn as a corrected tap and decoded when lifted, as a short stroke: it types the key it ends on
    /// unless a common word runs closely from key to key. Within a word it stays a tap.
    static let wordStartStrokeDistance = 0.6
    /// The least move that counts toward the travel, in pitches.
    static let strokeStep = 0.25
    /// The most points a stroke keeps (a minute's slide at a touchscreen's rate is far fewer).
    static let strokePointLimit = 2000

    /// Whether a press on a letter may become a stroke: slide to type is on, the bar shows (a dictionary
    /// in the keyboard's language, suggestions on), and the field is not secret.
    var strokesAllowed: Bool {
        slideToTypeEnabled && showsWords && !traits.secureEntry && layout.type != .namePhonePad && state.modifiers.isEmpty
    }

    /// What a press that went down on `key` starts tracking, if it may become a stroke.
    func strokeTracking(key: Int) -> StrokeTracking? {
        guard strokesAllowed, Self.letter(of: geometry.keys[key]) != nil else { return nil }
        return StrokeTracking()
    }

    /// A tracked touch moved: true when it is a stroke (and no longer moves from key to key).
    mutating func strokeMoved(_ touch: inout Touch, _ event: InputEvent, _ update: inout Update) -> Bool {
        guard var stroke = touch.stroke else { return false }
        defer { touch.stroke = stroke }
        if stroke.points.isEmpty { stroke.points.append(StrokePoint(x: touch.start.x, y: touch.start.y)) }
        if stroke.points.count < Self.strokePointLimit { stroke.points.append(StrokePoint(x: event.x, y: event.y)) }
        if stroke.isStroke {
            state.trail.points.append(Trail.Point(x: event.x, y: event.y, time: event.time))
            state.trail.advance(to: event.time)
            update.trailChanged = true
        }
        // In key pitches across and down: the key above is one away, as the key beside is.
        func pitches(_ a: StrokePoint, _ b: StrokePoint) -> Double {
            let across = (b.x - a.x) / word.plan.keyWidth, down = (b.y - a.y) / word.rowPitch
            return (across * across + down * down).squareRoot()
        }
        let start = stroke.points[0], point = StrokePoint(x: event.x, y: event.y)
        let step = pitches(stroke.lastStep ?? start, point)
        if step >= Self.strokeStep {
            stroke.travel += step
            stroke.lastStep = point
        }
        stroke.reach = max(stroke.reach, pitches(start, point))
        if stroke.isStroke { return true }
        guard stroke.reach >= Self.strokeDistance || stroke.travel >= Self.strokeTravel,
              touch.accepted, !touch.longPressDone else { return false }
        // A stroke now: the key pressed lets go (its balloon with it), and the trail starts where it began.
        stroke.isStroke = true
        unpress(touch.key, &update)
        touch.longPressDone = true
        touch.nextRepeat = nil
        state.trail.points = [Trail.Point(x: start.x, y: start.y, time: event.time)]
            + [Trail.Point(x: event.x, y: event.y, time: event.time)]
        state.trail.advance(to: event.time)
        update.trailChanged = true
        return true
    }

    /// Whether a touch lifted after a slide to a neighbouring key at a word's start, which may be a short
    /// stroke (a two-letter word): it is drawn as the corrected tap it may also be until then.
    func isShortStroke(_ touch: Touch) -> Bool {
        guard let stroke = touch.stroke, !stroke.isStroke, touch.accepted, !touch.longPressDone else { return false }
        let wordTapped = word.taps.contains { $0.x != nil }
        return !wordTapped && stroke.reach >= Self.wordStartStrokeDistance
    }

    /// A stroke lifted: its points go to the decoder; the word is typed when the answer comes.
    mutating func strokeEnded(_ stroke: StrokeTracking, _ event: InputEvent, _ update: inout Update) {
        var points = stroke.points
        points.append(StrokePoint(x: event.x, y: event.y))
        // Lifted before it became a stroke: a slide to a neighbour at a word's start (`isShortStroke`).
        word.pendingStroke = PendingStroke(points: points, time: event.time, short: !stroke.isStroke)
        state.trail.advance(to: event.time)
        update.trailChanged = true
        wordChanged(&update)
    }

    /// The decoder's words for the stroke lifted last: the best is typed, the others fill the bar. None:
    /// nothing is typed, as on iOS.
    mutating func receiveStroke(_ words: [String], _ update: inout Update) {
        guard let pending = word.pendingStroke else { return }
        word.pendingStroke = nil
        guard let best = words.first else {
            // A short stroke that means no word was a tap corrected on the way.
            if pending.short { typeAsTap(pending, &update) } else { wordChanged(&update) }
            return
        }
        let time = pending.time
        let previous = contextWordsForStroke().previous
        let shiftTapped = state.shift == .on && !autoShift, capsLock = state.shift == .capsLock
        // Strokes need no space between them: one goes in after a word (ending it, with its correction).
        if let last = composer.record.last, Self.isWordCharacter(last) { typeText(" ", at: time, &update) }
        let capital = shiftTapped || composer.wantsCapital
        func shown(_ text: String) -> String {
            var text = traits.smartQuotes ? String(text.map { $0 == "'" ? "’" : $0 }) : text
            if capsLock { return text.uppercased() }
            if capital, let first = text.first { text = first.uppercased() + text.dropFirst() }
            return text
        }
        let text = shown(best)
        update.actions += composer.type(text, at: time)
        if learnsWords { update.learn(wordLanguage, .typed(best, after: previous, taps: [], plan: keyPlan())) }
        restartWord(&update)
        word.swiped = text.count
        let others = words.dropFirst().prefix(3).map(shown)
        word.result = Suggestions(generation: word.generation, slots: others.map { Slot(text: $0, kind: .word) })
        state.bar = others.map { BarSlot(text: $0) }
        update.changedKeys.formUnion(keys { $0.isSuggestion })
        afterKey(&update)
    }

    /// A short stroke typed as the tap corrected on the way that it also is: the key it ended on.
    mutating func typeAsTap(_ pending: PendingStroke, _ update: inout Update) {
        guard let end = pending.points.last, let key = geometry.keyIndex(atX: end.x, y: end.y),
              case .text(let text) = geometry.keys[key].function else { return wordChanged(&update) }
        typeText(text, at: pending.time, point: (end.x, end.y), &update)
    }

    /// How long input read after a stroke's lift may wait for the stroke's words (the worker takes a few
    /// milliseconds): past it the stroke is dropped and the input handled, so a stuck worker holds nothing.
    static let strokeWordsWait = 1.0

    /// Whether input waits: a stroke was lifted and its words are not typed yet. A tap read with the lift
    /// (in one batch, the keyboard busy) would otherwise be typed before the stroke's word.
    var holdsInput: Bool { word.pendingStroke.map { !$0.short } ?? false }

    /// When held input goes on without the stroke's words; at once when the stroke is gone (another
    /// keyboard came).
    var heldInputDeadline: Double? {
        guard let first = heldInput.first else { return nil }
        return holdsInput ? first.time + Self.strokeWordsWait : first.time
    }

    /// Handles the input held while a stroke waited, in order; a stroke still waiting is dropped first.
    mutating func stopHoldingInput(_ update: inout Update) {
        if holdsInput {
            word.pendingStroke = nil
            wordChanged(&update)
        }
        let held = heldInput
        heldInput = []
        for event in held { update.merge(handle(event)) }
    }

    /// A new touch came while a short stroke waits for its words (input read late, in a batch): the stroke
    /// is the tap it may be, typed now, so that nothing typed after it comes first or is lost.
    mutating func typePendingShortStrokeAsTap(_ update: inout Update) {
        guard let pending = word.pendingStroke, pending.short else { return }
        word.pendingStroke = nil
        typeAsTap(pending, &update)
    }

    /// The word before a stroke's word: the one being typed, or the last one in the sentence.
    func contextWordsForStroke() -> (earlier: String?, previous: String?) {
        let record = composer.record
        guard let last = record.last, Self.isWordCharacter(last) else { return contextWords() }
        let words = wordsBefore(Substring(record))
        return (words.count == 2 ? words[0] : nil, words.last)
    }

    /// A delete right after a stroke's word takes the whole word back (iOS "Delete Slide-to-Type by Word");
    /// false when the last thing typed was no stroke.
    mutating func deleteStrokeWord(_ update: inout Update) -> Bool {
        guard let count = word.swiped else { return false }
        update.actions += composer.erase(count: count)
        restartWord(&update)
        return true
    }

    /// Moves the trail's clock on; true when it changed.
    mutating func fadeTrail(at now: Double) -> Bool {
        guard !state.trail.isEmpty else { return false }
        state.trail.advance(to: now)
        return true
    }

    /// When the trail is next drawn as it fades, at the display's rate, while a finger is not drawing it.
    var trailDeadline: Double? {
        state.trail.isEmpty ? nil : state.trail.now + Self.trailFrame
    }

    static let trailFrame = 1.0 / 60
}
