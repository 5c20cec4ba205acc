public import KeyboardModel

/// The space bar as a trackpad (TypingEngine's part), as on iOS: held a moment without moving, or slid
/// along, the space bar turns the keyboard into a trackpad. The finger's motion moves the caret by
/// characters across and by lines up and down (arrow keys, which every application and terminal takes),
/// faster for fast moves; a second finger's tap, or holding still a moment longer before moving, starts a
/// selection that the motion extends, and a second finger's double tap selects the word at the caret.
/// Lifting ends it; nothing is typed.
struct Trackpad: Sendable {
    /// The finger that moves the caret.
    var touch: Int
    var last: (x: Double, y: Double, time: Double)
    /// Motion not yet turned into a whole step, in steps.
    var carry: (x: Double, y: Double) = (0, 0)
    /// A second finger's tap started a selection: moves extend it.
    var selecting = false
    /// When a second finger last tapped, for its double tap.
    var lastSecondTap = -Double.infinity
    /// Whether anything was selected, which the bar then offers to cut or copy.
    var selected = false
    /// Whether the caret has moved yet.
    var moved = false
    /// When it became a trackpad.
    var started: Double
}

extension TypingEngine {
    /// How long the space bar is held still before it becomes a trackpad.
    static let trackpadHold = 0.3
    /// How far along the space bar (key widths) a slide makes it a trackpad at once.
    static let trackpadSlide = 0.6
    /// How far the finger moves (key widths across, row pitches down) for one character or line.
    static let trackpadStep = (x: 0.35, y: 0.8)
    /// Above this speed (key widths a second) each step counts more, up to `trackpadMaxGain` times.
    static let trackpadFast = 6.0
    static let trackpadMaxGain = 4.0
    /// Held this much longer before moving, the trackpad selects as it moves (as a second finger's tap).
    static let trackpadSelectHold = 0.5

    /// Whether the space bar may become a trackpad here: never in a secret field.
    var trackpadAllowed: Bool { !traits.secureEntry }

    /// Whether a touch held on the space bar is due to become a trackpad, and when. Only a finger that went
    /// down on it: one slid onto it from a key picks the space, as it would any key it slides to.
    func trackpadDeadline(_ touch: Touch) -> Double? {
        guard trackpad == nil, trackpadAllowed, touch.accepted, !touch.longPressDone, touch.key == touch.startKey,
              touch.key < geometry.keys.count, geometry.keys[touch.key].function.isSpace else { return nil }
        return touch.began + Self.trackpadHold
    }

    /// The space bar was held long enough, or slid along: the keyboard is a trackpad under that finger.
    mutating func startTrackpad(_ id: Int, at point: (x: Double, y: Double), time: Double, _ update: inout Update) {
        guard var touch = touches[id] else { return }
        touch.longPressDone = true
        touch.nextRepeat = nil
        touches[id] = touch
        unpress(touch.key, &update)
        trackpad = Trackpad(touch: id, last: (point.x, point.y, time), started: time)
        state.trackpad = true
        update.redrawAll = true
    }

    /// A touch on the space bar moved: true when it slid far enough along to become a trackpad.
    mutating func spaceSlid(_ id: Int, _ touch: Touch, _ event: InputEvent, _ update: inout Update) -> Bool {
        guard trackpad == nil, trackpadAllowed, !touch.longPressDone, touch.key == touch.startKey,
              touch.key < geometry.keys.count, geometry.keys[touch.key].function.isSpace,
              abs(event.x - touch.start.x) >= Self.trackpadSlide * word.plan.keyWidth else { return false }
        startTrackpad(id, at: (touch.start.x, touch.start.y), time: touch.began, &update)
        trackpad?.started = event.time
        trackpadMoved(event, &update)
        return true
    }

    /// Any touch while the keyboard is a trackpad: the trackpad's finger moves the caret or lifts; another
    /// finger's tap selects.
    mutating func trackpadInput(_ event: InputEvent, _ update: inout Update) {
        guard var pad = trackpad else { return }
        if event.touch == pad.touch {
            switch event.phase {
            case .moved:
                trackpadMoved(event, &update)
            case .ended, .cancelled:
                touches[event.touch] = nil
                endTrackpad(&update)
            case .began:
                break
            }
            return
        }
        // A second finger: its tap (on lifting) starts a selection, and its double tap selects the word.
        guard event.phase == .ended else { return }
        if event.time - pad.lastSecondTap <= timing.doubleTap {
            update.actions += [.keysym("Left", modifiers: ["Control_L"]), .keysym("Right", modifiers: ["Control_L", "Shift_L"])]
            pad.selected = true
            pad.selecting = false
            pad.lastSecondTap = -.infinity
        } else {
            pad.selecting.toggle()
            pad.lastSecondTap = event.time
        }
        trackpad = pad
        composer.reset()
    }

    /// The trackpad's finger moved: whole steps of motion move the caret, the rest is carried.
    mutating func trackpadMoved(_ event: InputEvent, _ update: inout Update) {
        guard var pad = trackpad else { return }
        let dx = event.x - pad.last.x, dy = event.y - pad.last.y, dt = max(event.time - pad.last.time, 0.001)
        let unit = word.plan.keyWidth
        let speed = (dx * dx + dy * dy).squareRoot() / unit / dt
        let gain = min(Self.trackpadMaxGain, max(1, speed / Self.trackpadFast))
        pad.carry.x += dx / unit / Self.trackpadStep.x * gain
        pad.carry.y = fieldIsMultiLine ? pad.carry.y + dy / word.rowPitch / Self.trackpadStep.y : 0
        pad.last = (event.x, event.y, event.time)
        let across = Int(pad.carry.x.rounded(.towardZero)), down = Int(pad.carry.y.rounded(.towardZero))
        pad.carry.x -= Double(across)
        pad.carry.y -= Double(down)
        let modifiers = pad.selecting ? ["Shift_L"] : []
        if pad.selecting && (across != 0 || down != 0) { pad.selected = true }
        // Across, the field's own caret and selection where they can be set; up and down, keys (and in a
        // field of lines a selection too, keys: a line up moves the caret where only the field knows).
        var steps = [(down < 0 ? "Up" : "Down", abs(down))]
        if pad.selecting && fieldIsMultiLine {
            steps.insert((across < 0 ? "Left" : "Right", abs(across)), at: 0)
        } else if across != 0 {
            update.actions.append(.moveCaret(by: across, selecting: pad.selecting))
        }
        for (key, count) in steps where count > 0 {
            update.actions += Array(repeating: KeyAction.keysym(key, modifiers: modifiers), count: count)
        }
        if (across != 0 || down != 0) && !pad.moved {
            // The caret moved by other means than typing: what was typed before it no longer counts (once:
            // the word and the bar need no asking again at every move).
            pad.moved = true
            composer.reset()
            restartWord(&update)
        }
        trackpad = pad
    }

    /// When a trackpad held still since it started turns to selecting.
    var trackpadSelectDeadline: Double? {
        guard let pad = trackpad, !pad.moved, !pad.selecting, !pad.selected else { return nil }
        return pad.started + Self.trackpadSelectHold
    }

    /// The finger held still long enough: its moves select from here.
    mutating func trackpadHeld(at now: Double) {
        guard let due = trackpadSelectDeadline, due <= now else { return }
        trackpad?.selecting = true
    }

    /// The trackpad's finger lifted: the keys come back; a selection made leaves cut, copy and paste in
    /// the bar, a caret moved undo, redo and paste.
    mutating func endTrackpad(_ update: inout Update) {
        guard let pad = trackpad else { return }
        trackpad = nil
        state.trackpad = false
        update.redrawAll = true
        if (pad.selected || pad.moved) && showsBar { offerEditActions(selection: pad.selected, &update) }
        autoCapitalize(&update)
    }
}
