internal import KeyboardModel
internal import Render
internal import Typing

/// Draws the keyboard in its window: what changed since the last drawing, once per round of events, so a
/// press and release read together draw only their outcome and a keystroke never waits for pixels.
final class Painter {
    let renderer: KeyboardRenderer
    let window: KeyboardWindow
    /// What changed on screen since the last drawing.
    private var pending = (all: false, keys: KeySet(), popups: false, trail: false)
    /// Where popups were last drawn, to clear them when they close.
    private var drawnPopupAreas: [Rect] = []
    /// Where a stroke's trail was last drawn, to clear it as it moves and fades.
    private var drawnTrailArea: Rect?

    init(renderer: KeyboardRenderer, window: KeyboardWindow) {
        self.renderer = renderer
        self.window = window
    }

    /// Notes what an update of the typing engine changed.
    func note(_ update: Update) {
        pending.all = pending.all || update.redrawAll
        pending.keys.formUnion(update.changedKeys)
        pending.popups = pending.popups || update.popupsChanged
        pending.trail = pending.trail || update.trailChanged
    }

    /// Everything is to be drawn again (another keyboard, another size).
    func noteAll() { pending.all = true }

    /// Whether anything waits to be drawn.
    var hasPending: Bool { pending.all || !pending.keys.isEmpty || pending.popups || pending.trail }

    /// Draws what changed since the last call. It takes the keys and their state, not the whole engine:
    /// a copy of the engine retains each of its fifty-odd parts.
    func drawPending(_ geometry: KeyboardGeometry, _ state: KeyboardState, handle: Rect?) {
        defer { pending = (false, [], false, false) }
        if pending.all {
            redrawAll(geometry, state, handle: handle)
        } else if !pending.keys.isEmpty || pending.popups || pending.trail {
            let keyAreas = pending.keys.compactMap { index in
                index < geometry.keys.count ? KeyboardRenderer.keyArea(geometry.keys[index].rect) : nil
            }
            var areas = keyAreas
            if pending.popups {
                let now = popupAreas(geometry, state)
                areas += drawnPopupAreas + now
                drawnPopupAreas = now
            }
            if pending.trail {
                // Only where the trail was and is: the keys under it come back from the clean buffer.
                let now = KeyboardRenderer.trailArea(state.trail, in: geometry)
                areas += [drawnTrailArea, now].compactMap { $0 }
                drawnTrailArea = now
            }
            draw(geometry, state, handle: handle, keys: keyAreas, areas: Self.outermost(areas))
        }
    }

    /// The areas without those inside another (a key under its balloon), so that each part of the window
    /// is restored, drawn over and shown once.
    static func outermost(_ areas: [Rect]) -> [Rect] {
        var kept: [Rect] = []
        for (index, area) in areas.enumerated() {
            let inside = areas.indices.contains { other in
                other != index && areas[other].contains(area) && (areas[other] != area || other < index)
            }
            if !inside { kept.append(area) }
        }
        return kept
    }

    /// Draws the whole window.
    func redrawAll(_ geometry: KeyboardGeometry, _ state: KeyboardState, handle: Rect?) {
        drawnPopupAreas = popupAreas(geometry, state)
        drawnTrailArea = KeyboardRenderer.trailArea(state.trail, in: geometry)
        let all = [Rect(x: 0, y: 0, width: window.frame.width, height: window.frame.height)]
        draw(geometry, state, handle: handle, keys: all, areas: all)
    }

    private func popupAreas(_ geometry: KeyboardGeometry, _ state: KeyboardState) -> [Rect] {
        state.popups.map { KeyboardRenderer.keyArea(PopupLayout.rect(for: $0, in: geometry)) }
    }

    /// Draws the changed keys on the popup-free buffer, copies the dirty areas from it, puts the popups
    /// back on top, and shows the result.
    private func draw(_ geometry: KeyboardGeometry, _ state: KeyboardState, handle: Rect?, keys keyAreas: [Rect],
                      areas: [Rect]) {
        guard let clean = window.cleanSurface, let front = window.surface, !areas.isEmpty, window.isMapped else { return }
        if !keyAreas.isEmpty {
            try? renderer.redraw(keyAreas, of: geometry, state: state, on: clean, popups: false)
            if let handle, keyAreas.contains(where: { $0.intersects(handle) }) {
                try? renderer.drawHandle(handle, on: clean)
            }
        }
        window.restoreFromClean(areas)
        try? renderer.drawPopups(over: areas, of: geometry, state: state, on: front)
        try? renderer.drawTrail(state.trail, over: areas, of: geometry, on: front)
        window.present(areas)
    }
}
