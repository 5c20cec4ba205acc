internal import EventLoop
internal import KeyboardCore
internal import KeyboardModel
internal import Render
internal import Typing

/// Keys drawn ahead, one a turn while nothing else is to do, so that the frame that shows them does not
/// wait for their glyphs: on an emoji page, the pages its page keys lead to (some 30 ms the first time);
/// when the emoji keyboard is next, its first page, while the Globe key that leads there is held, or at
/// once for a person who has used emoji (so the colour font is loaded only for those); while the Globe
/// key is held toward another keyboard, that keyboard.
final class DrawingAhead: EventSource {
    /// Held strongly: the keyboard does not hold this back (an unowned reference is checked at each use,
    /// and the plan reads the keyboard after every drawing).
    private let keyboard: Keyboard
    private let display: X11Display
    private var keys: [(geometry: KeyboardGeometry, key: Int)] = []
    private var plan: Plan?
    /// Whether the keys planned ahead were named to the renderer, which decodes their emoji meanwhile.
    private var named = false
    private var emojiBoardsSeen = 0
    private var renderer: KeyboardRenderer { display.painter.renderer }

    init(keyboard: Keyboard, display: X11Display) {
        self.keyboard = keyboard
        self.display = display
    }

    /// While the fonts the keys need are read on their thread, it looks again every 2 ms.
    func prepare(now: Double) -> Interest {
        keys.isEmpty ? .nothing : .at(LabelFonts.isWideningUnderWay ? now + 0.002 : now)
    }

    func turn(_ ready: [Readiness], now: Double) {
        if !LabelFonts.isWideningUnderWay { drawNext() }
    }

    /// What the keys drawn ahead were chosen from: a plan is made again only when it changes.
    private struct Plan: Equatable {
        var shown: String
        var layer: String
        var width: Int
        var height: Int
        var next: String
        var wanted: Bool
        var pending: Bool
    }

    /// What the keys drawn ahead depend on, read from the engine in place (this runs at the end of every
    /// round; a copy of the engine would retain each of its parts).
    private func currentPlan() -> Plan {
        let enabled = keyboard.engine.enabled, current = keyboard.engine.current
        let globeHeld = keyboard.engine.state.pressed.contains {
            if case .globe = keyboard.engine.geometry.keys[$0].function { true } else { false }
        }
        let usesEmoji = keyboard.engine.emoji.map { !$0.recent.isEmpty } ?? false
        let size = keyboard.engine.size
        return Plan(shown: enabled[current], layer: keyboard.engine.geometry.layer, width: size.width, height: size.height,
                    next: enabled[(current + 1) % enabled.count], wanted: globeHeld || usesEmoji,
                    pending: keyboard.emoji.isPending)
    }

    /// Plans the keys to draw ahead, when the keyboard shown or its layer changed. What the plan depends on
    /// changes only with something drawn (another keyboard, layer or size, the Globe key pressed or let go,
    /// an emoji typed) or with an emoji keyboard put in, so other rounds do not look.
    func replan(afterDrawing drawing: Bool) {
        guard drawing || keyboard.emojiBoardsAdded != emojiBoardsSeen || plan == nil else { return }
        emojiBoardsSeen = keyboard.emojiBoardsAdded
        let plan = currentPlan()
        guard plan != self.plan else { return }
        self.plan = plan
        let engine = keyboard.engine
        let (shown, next) = (plan.shown, plan.next)
        let globeHeld = engine.state.pressed.contains { engine.geometry.keys[$0].function == .globe }
        var ahead: [KeyboardGeometry] = []
        if engine.layout.type == .emoji {
            let pages = engine.geometry.keys.compactMap { key -> String? in
                guard EmojiBoard.turnsPage(key), case .layer(let page) = key.function else { return nil }
                return page
            }
            ahead = pages.reversed().compactMap { engine.geometry(of: shown, layer: $0) }
        } else if next == EmojiBoard.name ? plan.wanted && !(engine.emoji?.catalog.groups.isEmpty ?? true) : globeHeld {
            // Another language's letters (Cyrillic, Greek) take a while the first time too.
            ahead = [engine.geometry(of: next, layer: nil)].compactMap { $0 }
        }
        // Letters of another script, or emoji, need the whole font configuration: read on a thread while
        // the finger is down, not in the switch's frame (some 10 ms).
        if globeHeld, LabelFonts.isNarrow { LabelFonts.willDraw(ahead.flatMap { $0.keys.compactMap(\.label) }) }
        keys = ahead.flatMap { geometry in geometry.keys.indices.map { (geometry, $0) } }
        named = false
    }

    /// Draws the next key planned ahead into the renderer's images, up to one that was not drawn yet.
    private func drawNext() {
        guard let surface = display.window.cleanSurface else {
            keys = []
            return
        }
        // The colour glyphs of the keys planned are decoded on a thread meanwhile (not when the plan is made:
        // the fonts may be still being read then).
        if !named {
            named = true
            renderer.decodeAhead(keys)
        }
        while !keys.isEmpty {
            let (geometry, key) = keys.removeFirst()
            if renderer.prepareKey(key, of: geometry, state: KeyboardState(), on: surface) { return }
        }
    }
}
