public import KeyboardModel

/// Dwell: for a head or eye pointer that can move but not click, a pointer that rests on a key for
/// `timing.dwell` presses it, with a ring that fills on the key meanwhile. Moving off the key cancels; after
/// a press the pointer must leave the key before it presses again. The pause key stops it, but for itself.
/// The Globe key's dwell opens its list (a held key is out of a dwell user's reach), and a dwell on a cell
/// of the list picks it.
extension TypingEngine {
    /// The pointer moved over the keyboard without a button down (nil: it left the keyboard).
    public mutating func hover(x: Double, y: Double, time: Double) -> Update {
        var update = Update()
        guard timing.dwell > 0 else { return update }
        if hoverList(x: x, y: y, time: time, &update) { return update }
        let key = geometry.keyIndex(atX: x, y: y)
        if key == hovering?.key, hovering?.cell == nil { return update }
        endHover(&update)
        if let key, !state.dwellPaused || geometry.keys[key].function == .dwellPause {
            hovering = Hover(key: key, since: time, nextFrame: time + timing.dwellFrame, point: (x, y))
            state.dwell = (key, 0)
            update.changedKeys.insert(key)
        }
        return update
    }

    /// The keys moved under a resting pointer (another layer, a page of the settings): the key under it
    /// now is the one it rests on, pressed already if the old one was, so that it presses nothing until
    /// the pointer moves to another key.
    mutating func keysMovedUnderHover() {
        guard var hover = hovering else { return }
        guard let key = geometry.keyIndex(atX: hover.point.x, y: hover.point.y) else {
            hovering = nil
            state.dwell = nil
            return
        }
        hover.key = key
        hover.cell = nil
        hovering = hover
        if state.dwell != nil { state.dwell = (key, state.dwell!.progress) }
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
        if let cell = hover.cell, let open = state.popups.firstIndex(where: { !isPreview($0) }),
           case .keyboards(_, let titles, _) = state.popups[open] {
            state.popups.remove(at: open)
            update.popupsChanged = true
            update.actions.append(keyboardListAction(cell, of: titles))
        } else if geometry.keys[hover.key].function == .globe, hasLongPress(hover.key) {
            openLongPress(key: hover.key, &update)
            update.click = .modifier
        } else {
            // Resting was the hold: slow keys have had their time.
            pressKey(hover.key, at: now, &update)
        }
    }

    /// The pointer over the Globe key's list opened by dwell: the cell under it is chosen, and fills to be
    /// picked. Off the list, the list closes. False when no such list is open.
    private mutating func hoverList(x: Double, y: Double, time: Double, _ update: inout Update) -> Bool {
        guard touches.isEmpty, let open = state.popups.firstIndex(where: { !isPreview($0) }),
              case .keyboards(let key, let titles, _) = state.popups[open] else { return false }
        let rect = PopupLayout.rect(for: state.popups[open], in: geometry)
        guard Double(rect.x) <= x, x < Double(rect.maxX), Double(rect.y) <= y, y < Double(rect.maxY) else {
            // Off the list, onto the keys: it closes, as a finger lifted off it would.
            if hovering?.key == key, hovering?.done == true, geometry.keyIndex(atX: x, y: y) == key { return true }
            state.popups.remove(at: open)
            update.popupsChanged = true
            endHover(&update)
            return false
        }
        let cell = PopupLayout.cell(at: y - Double(rect.y), size: Double(rect.height), count: titles.count)
        if hovering?.cell == cell { return true }
        state.popups[open] = .keyboards(key: key, titles: titles, selected: cell)
        update.popupsChanged = true
        hovering = Hover(key: key, since: time, nextFrame: time + timing.dwellFrame, point: (x, y), cell: cell)
        return true
    }

    /// The key the pointer rests on: since when, when the ring is next drawn, and whether it pressed already.
    struct Hover: Sendable {
        var key: Int
        var since: Double
        var nextFrame: Double
        var done = false
        /// Where the pointer rests.
        var point: (x: Double, y: Double)
        /// The cell of the Globe key's list it rests on, over the list.
        var cell: Int? = nil
    }
}
