internal import Basics
internal import EventLoop
public import KeyboardModel
internal import Render
import Trace
import Typing

/// The emoji keyboard in the host: its emoji read once the first frame is out, and what the user did with
/// it (recent emoji, skin tones) kept in a private state file.
extension KeyboardHost {
    /// The emoji keyboard at start. One named first is in already and gets its memory now. For a person
    /// who has used emoji, Unicode's list (some 3,800 lines: a few ms, 150 in a debug build) is read on a
    /// thread of its own now. For anyone else the keyboard joins the Globe key's cycle empty, and its emoji
    /// are read when first wanted: while the Globe key that leads to it is held, or at the latest when it
    /// is shown. Its 1.3 MiB are kept only by those who use it.
    func startEmoji() {
        // The memory is read once here, for the keyboard that gets it now or for the reading it starts.
        let memory = readEmojiMemory()
        if let named = engine.emoji {
            addEmoji(named, memory: memory)
            return
        }
        guard options.emojiCatalog != nil else { return }
        if memory.map(EmojiBoard.listsRecent) ?? false {
            readEmoji(memory: memory)
        } else {
            emojiPending = true
            addEmoji(EmojiBoard(catalog: EmojiCatalog(groups: [])), memory: nil)
        }
    }

    /// Starts reading the emoji on a thread, once; the keyboard gets them, with the memory (read then
    /// unless given), when they are in.
    func readEmoji(memory given: String? = nil) {
        guard emojiReading == nil, let read = options.emojiCatalog else { return }
        let catalog = BackgroundWork.Handover<EmojiCatalog>()
        let work = BackgroundWork({ catalog.value = read(false) }, then: { [unowned self] in
            emojiPending = false
            if let read = catalog.value {
                addEmoji(EmojiBoard(catalog: read), memory: given ?? readEmojiMemory())
            } else if !(engine.emoji?.catalog.groups.isEmpty ?? true) {
                // The list is broken (and said so): not even the first page drawn ahead stays.
                engine.addEmoji(EmojiBoard(catalog: EmojiCatalog(groups: [])))
            }
        })
        emojiReading = work
        loop.add(work)
    }

    /// The emoji, now: the emoji keyboard is about to be shown.
    func finishEmoji() {
        guard emojiPending else { return }
        readEmoji()
        emojiReading?.finishNow()
    }

    /// What the state file kept of the emoji used and the tones chosen; nil when there is none (or it
    /// cannot be read, which is said).
    private func readEmojiMemory() -> String? {
        do { return try options.emojiFile?.readText() } catch {
            warn("\(error); the emoji used lately are not shown first")
            return nil
        }
    }

    /// Adds the emoji keyboard, with the recent emoji and tones of earlier runs.
    func addEmoji(_ board: EmojiBoard, memory: String?) {
        var board = board
        if let memory { board.remember(memory) }
        let globe = engine.options.showsGlobe
        engine.addEmoji(board)
        // A single keyboard gets its Globe key.
        if engine.options.showsGlobe != globe { painter.noteAll() }
        Trace.step(board.catalog.groups.isEmpty ? "emoji keyboard joined, its list read when wanted" : "emoji read")
    }

    /// Keeps the recent emoji and skin tones, after a change (`Update.emojiMemoryChanged`).
    func rememberEmoji() {
        guard let file = options.emojiFile, let board = engine.emoji else { return }
        do { try file.write(board.memory, private: true) } catch {
            if !emojiFileFailed { warn("\(error); the emoji used are not kept for the next start") }
            emojiFileFailed = true
        }
    }

    /// Plans the keys to draw ahead, when the keyboard shown or its layer changed: on an emoji page, the
    /// pages the page keys lead to (their glyphs take some 30 ms the first time, a page turn's frame
    /// would miss); when the emoji keyboard is next, its first page, while the Globe key that leads there
    /// is held, or at once for a person who has used emoji (so the colour font is loaded only for those);
    /// while the Globe key is held toward another keyboard, that keyboard.
    func planDrawingAhead() {
        let shown = engine.enabled[engine.current]
        let globeHeld = engine.state.pressed.contains { engine.geometry.keys[$0].function == .globe }
        let next = engine.enabled[(engine.current + 1) % engine.enabled.count]
        let usesEmoji = engine.emoji.map { !$0.recent.isEmpty } ?? false
        // The Globe key held toward the emoji keyboard: its emoji are wanted soon. While they are read, the
        // first page is drawn ahead from its own few lines: its keys' images are the same once all are in.
        if globeHeld, next == EmojiBoard.name, emojiPending {
            readEmoji()
            if engine.emoji?.catalog.groups.isEmpty ?? false, let firstPage = options.emojiCatalog?(true) {
                engine.addEmoji(EmojiBoard(catalog: firstPage))
            }
        }
        let plan = DrawingAheadPlan(shown: shown, layer: engine.layer, width: engine.size.width, height: engine.size.height,
                                    next: next, wanted: globeHeld || usesEmoji, pending: emojiPending)
        guard plan != drawingAheadPlan else { return }
        drawingAheadPlan = plan
        var ahead: [KeyboardGeometry] = []
        if engine.layout.type == .emoji {
            let pages = engine.geometry.keys.compactMap { key -> String? in
                guard EmojiBoard.turnsPage(key), case .layer(let page) = key.function else { return nil }
                return page
            }
            ahead = pages.reversed().compactMap { engine.geometry(of: shown, layer: $0) }
        } else if next == EmojiBoard.name ? (globeHeld || usesEmoji) && !(engine.emoji?.catalog.groups.isEmpty ?? true) : globeHeld {
            // Another language's letters (Cyrillic, Greek) take a while the first time too.
            ahead = [engine.geometry(of: next, layer: nil)].compactMap { $0 }
        }
        // Letters of another script, or emoji, need the whole font configuration: read on a thread while
        // the finger is down, not in the switch's frame (some 10 ms).
        if globeHeld, LabelFonts.isNarrow { LabelFonts.willDraw(ahead.flatMap { $0.keys.compactMap(\.label) }) }
        drawingAhead = ahead.flatMap { geometry in geometry.keys.indices.map { (geometry, $0) } }
        drawingAheadNamed = false
    }

    /// What the keys drawn ahead were chosen from: a plan is made again only when it changes. (A value,
    /// not a string made each round: a size tuple put in a string is written by reflection, Mirror and
    /// demangling, every time the loop turned.)
    struct DrawingAheadPlan: Equatable {
        var shown: String
        var layer: String
        var width: Int
        var height: Int
        var next: String
        var wanted: Bool
        var pending: Bool
    }

    /// Draws the next key planned ahead into the renderer's images, up to one that was not drawn yet.
    func drawNextAhead() {
        guard let surface = window.cleanSurface else {
            drawingAhead = []
            return
        }
        // The colour glyphs of the keys planned are decoded on a thread meanwhile (not when the plan is made:
        // the fonts may be still being read then).
        if !drawingAheadNamed {
            drawingAheadNamed = true
            painter.renderer.decodeAhead(drawingAhead)
        }
        while !drawingAhead.isEmpty {
            let (geometry, key) = drawingAhead.removeFirst()
            if painter.renderer.prepareKey(key, of: geometry, state: KeyboardState(), on: surface) { return }
        }
    }
}
