public import KeyboardModel

/// Dwell: for a head or eye pointer that can move but not click, a pointer that rests on a key for
/// `timing.dwell` presses it, with a ring that fills on the key meanwhile. Moving off the key cancels; after
/// a press the pointer must leave the key before it presses again. The pause key stops it, but for itself.
extension TypingEngine {
    /// The pointer moved over the keyboard without a button down (nil: it left the keyboard).
    public mutating func hover(x: Double, y: Double, time: Double) -> Update {
        var update = Update()
        guard timing.dwell > 0 else { return update }
        let key = geometry.keyIndex(atX: x, y: y)
        if key == hovering?.key { return update }
        endHover(&update)
        if let key, !state.dwellPaused || geometry.keys[key].function == .dwellPause {
            hovering = Hover(key: key, since: time, nextFrame: time + timing.dwellFrame)
            state.dwell = (key, 0)
            update.changedKeys.insert(key)
        }
        return update
    }

    /// The pointer left the keyboard.
    public mutating func hoverEnded() -> Update {
        var update = Update()
        endHover(&update)
        return update
    }

    private mutating func endHover(_ update: inout Update) {
        guard let hover = hovering else { return }
        hovering = nil
        if state.dwell != nil {
            state.dwell = nil
            update.changedKeys.insert(hover.key)
        }
    }

    /// The next frame of the ring, or the press: nil when no dwell is filling.
    var dwellDeadline: Double? {
        guard timing.dwell > 0, let hover = hovering, !hover.done else { return nil }
        return min(hover.nextFrame, hover.since + timing.dwell)
    }

    /// The ring's next frame when it is due; the press when the dwell is full.
    mutating func dwellTick(at now: Double, _ update: inout Update) {
        guard timing.dwell > 0, var hover = hovering, !hover.done else { return }
        // Compared as times, not as a ratio: at the deadline itself the ratio may fall short of 1 by a rounding.
        if now < hover.since + timing.dwell {
            let progress = (now - hover.since) / timing.dwell
            hover.nextFrame = now + timing.dwellFrame
            hovering = hover
            state.dwell = (hover.key, progress)
            update.changedKeys.insert(hover.key)
            return
        }
        hover.done = true
        hovering = hover
        state.dwell = nil
        update.changedKeys.insert(hover.key)
        // Resting was the hold: slow keys have had their time.
        pressKey(hover.key, at: now, &update)
    }

    /// The key the pointer rests on: since when, when the ring is next drawn, and whether it pressed already.
    struct Hover: Sendable {
        var key: Int
        var since: Double
        var nextFrame: Double
        var done = false
    }
}
