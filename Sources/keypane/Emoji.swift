internal import Basics
#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel
import X11Host

/// The emoji keyboard's emoji: Unicode's emoji-test.txt as Debian installs it (unicode-data).
enum EmojiSource {
    /// Reads the list; a missing or broken file is said, and there is no emoji keyboard.
    static func read(path: String = EmojiCatalog.standardPath) -> EmojiCatalog? {
        do { return try EmojiCatalog(contentsOf: path) } catch {
            warn("no emoji keyboard: \(error) (Debian's unicode-data has the list)")
            return nil
        }
    }

    /// The library with the emoji keyboard, when the emoji can be read; with the board it was made from.
    static func add(to library: inout LayoutLibrary) -> EmojiBoard? {
        guard let catalog = read() else { return nil }
        let board = EmojiBoard(catalog: catalog)
        library.add(board.layout())
        return board
    }
}
