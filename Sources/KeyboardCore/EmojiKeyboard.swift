internal import Basics
public import EventLoop
internal import KeyboardModel
import Trace
internal import Typing

/// The emoji keyboard's side of the keyboard: its emoji read once the first frame is out (on a thread), and
/// what the person did with it (recent emoji, skin tones) kept in a private state file. An event-loop
/// source while the emoji are read.
public final class EmojiKeyboard: EventSource {
    private unowned let keyboard: Keyboard
    private var configuration: Keyboard.Configuration { keyboard.configuration }
    /// Unicode's emoji list being read on its thread.
    private var reading: BackgroundWork?
    /// The emoji keyboard is in the Globe key's cycle, its emoji not read yet.
    public private(set) var isPending = false
    private var fileFailed = false

    init(keyboard: Keyboard) { self.keyboard = keyboard }

    public func prepare(now: Double) -> Interest { reading?.prepare(now: now) ?? .nothing }
    public func turn(_ ready: [Readiness], now: Double) { reading?.turn(ready, now: now) }

    /// The emoji keyboard at start. One named first is in already and gets its memory now. For a person
    /// who has used emoji, Unicode's list (some 3,800 lines: a few ms, 150 in a debug build) is read on a
    /// thread of its own now. For anyone else the keyboard joins the Globe key's cycle empty, and its emoji
    /// are read when first wanted: while the Globe key that leads to it is held, or at the latest when it
    /// is shown. Its 1.3 MiB are kept only by those who use it.
    public func start() {
        // The memory is read once here, for the keyboard that gets it now or for the reading it starts.
        let memory = readMemory()
        if let named = keyboard.engine.emoji {
            add(named, memory: memory)
            return
        }
        guard configuration.emojiCatalog != nil, configuration.emojiInCycle else { return }
        if memory.map(EmojiBoard.listsRecent) ?? false {
            read(memory: memory)
        } else {
            isPending = true
            add(EmojiBoard(catalog: EmojiCatalog(groups: [])), memory: nil)
        }
    }

    /// The emoji keyboard joins the Globe key's cycle (the settings panel turned it on), its emoji read
    /// when it is first wanted; false when there is no emoji list to read.
    func joinWhenWanted() -> Bool {
        guard keyboard.keyboardEngine.emoji == nil else { return true }
        guard configuration.emojiCatalog != nil else { return false }
        isPending = true
        keyboard.changeKeyboardEngine { $0.addEmoji(EmojiBoard(catalog: EmojiCatalog(groups: []))) }
        return true
    }

    /// Starts reading the emoji on a thread, once; the keyboard gets them, with the memory (read then
    /// unless given), when they are in.
    private func read(memory given: String? = nil) {
        guard reading == nil, let read = configuration.emojiCatalog else { return }
        let catalog = BackgroundWork.Handover<EmojiCatalog>()
        reading = BackgroundWork({ catalog.value = read(false) }, then: { [unowned self] in
            isPending = false
            if let read = catalog.value {
                add(EmojiBoard(catalog: read), memory: given ?? readMemory())
            } else if !(keyboard.engine.emoji?.catalog.groups.isEmpty ?? true) {
                // The list is broken (and said so): not even the first page drawn ahead stays.
                keyboard.addEmoji(EmojiBoard(catalog: EmojiCatalog(groups: [])))
            }
        })
    }

    /// The emoji, now: the emoji keyboard is about to be shown.
    func finish() {
        guard isPending else { return }
        read()
        reading?.finishNow()
    }

    /// The Globe key held toward the emoji keyboard: its emoji are wanted soon. While they are read, the
    /// first page is put in from its own few lines, to be drawn ahead: its keys' images are the same once
    /// all are in.
    func prepareIfWanted() {
        // Read in place: this runs at the end of every round, and a copy of the engine retains each of its parts.
        let enabled = keyboard.engine.enabled, next = (keyboard.engine.current + 1) % enabled.count
        guard isPending, enabled[next] == EmojiBoard.name,
              keyboard.engine.state.pressed.contains(where: { keyboard.engine.geometry.keys[$0].function == .globe })
        else { return }
        read()
        if keyboard.engine.emoji?.catalog.groups.isEmpty ?? false, let firstPage = configuration.emojiCatalog?(true) {
            keyboard.addEmoji(EmojiBoard(catalog: firstPage))
        }
    }

    /// What the state file kept of the emoji used and the tones chosen; nil when there is none (or it
    /// cannot be read, which is said).
    private func readMemory() -> String? {
        do { return try configuration.emojiFile?.readText() } catch {
            warn("\(error); the emoji used lately are not shown first")
            return nil
        }
    }

    /// Adds the emoji keyboard, with the recent emoji and tones of earlier runs.
    private func add(_ board: EmojiBoard, memory: String?) {
        var board = board
        if let memory { board.remember(memory) }
        keyboard.addEmoji(board)
        Trace.step(board.catalog.groups.isEmpty ? "emoji keyboard joined, its list read when wanted" : "emoji read")
    }

    /// Keeps the recent emoji and skin tones, after a change (`Update.emojiMemoryChanged`).
    func remember() {
        guard let file = configuration.emojiFile, let board = keyboard.engine.emoji else { return }
        do { try file.write(board.memory, private: true) } catch {
            if !fileFailed { warn("\(error); the emoji used are not kept for the next start") }
            fileFailed = true
        }
    }
}
