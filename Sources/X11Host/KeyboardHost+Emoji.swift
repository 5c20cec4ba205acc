public import KeyboardModel
import Trace
import Typing

/// The emoji keyboard in the host: its emoji read once the first frame is out, and what the user did with
/// it (recent emoji, skin tones) kept in a private state file.
extension KeyboardHost {
    /// Reads the emoji and adds their keyboard, with the recent emoji and tones of earlier runs.
    func addEmoji() {
        var board: EmojiBoard
        if let named = engine.emoji {
            board = named
        } else {
            guard let read = options.emojiCatalog, let catalog = read() else { return }
            board = EmojiBoard(catalog: catalog)
        }
        if let file = options.emojiFile {
            do {
                if let memory = try file.readText() { board.remember(memory) }
            } catch { warn("\(error); the emoji used lately are not shown first") }
        }
        engine.addEmoji(board)
        Trace.step("emoji read")
    }

    /// Keeps the recent emoji and skin tones, after a change (`Update.emojiMemoryChanged`).
    func rememberEmoji() {
        guard let file = options.emojiFile, let board = engine.emoji else { return }
        do { try file.write(board.memory, private: true) } catch {
            if !emojiFileFailed { warn("\(error); the emoji used are not kept for the next start") }
            emojiFileFailed = true
        }
    }
}
