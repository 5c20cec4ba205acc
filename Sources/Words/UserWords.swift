#if canImport(Glibc)
import Glibc
#endif

/// What the keyboard learned from the user: the words and word pairs they type, the words they kept as
/// typed, and how their fingers land. Counts fade: each is worth half as much after `halfLife` more
/// words, and the least worth go first when the store is full.
///
/// Kept in one file (mode 0600), written whole to a temporary file and renamed over the old one, so a
/// crash or a full disk leaves the old file as it was.
public struct UserWords: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var count: Double
        /// The word clock when it was last counted.
        var time: Int
    }

    /// Words typed, by their lower-case form.
    private(set) var words: [String: Entry] = [:]
    /// Pairs typed, "first second".
    private(set) var pairs: [String: Entry] = [:]
    /// The word clock: how many words were learned.
    private(set) var clock = 0
    public var touch = TouchModel()

    public static let maxWords = 6000
    public static let maxPairs = 12000
    public static let halfLife = 20000.0
    /// A word typed this often (or kept once) is a word the keyboard knows.
    public static let known = 2.0

    public init() {}

    private func worth(_ entry: Entry) -> Double { Self.worth(entry, at: clock) }

    private static func worth(_ entry: Entry, at clock: Int) -> Double {
        entry.count * pow(0.5, Double(clock - entry.time) / halfLife)
    }

    /// The word's faded count, 0 when never typed.
    public func count(of word: String) -> Double { words[word.lowercased()].map(worth) ?? 0 }

    /// The pair's faded count.
    public func count(of first: String, _ second: String) -> Double {
        pairs[first.lowercased() + " " + second.lowercased()].map(worth) ?? 0
    }

    /// Whether the word is the user's own: typed often enough, or kept.
    public func knows(_ word: String) -> Bool { count(of: word) >= Self.known * 0.99 }

    /// The learned words the keyboard knows, for the search.
    public var knownWords: [String] { words.keys.filter { knows($0) }.sorted() }

    /// A word was typed (after `previous`, when there was one).
    public mutating func learn(_ word: String, after previous: String?) {
        let word = word.lowercased()
        guard !word.isEmpty, word.count <= 40 else { return }
        clock += 1
        Self.add(&words, word, 1, clock: clock)
        if let previous = previous?.lowercased(), !previous.isEmpty { Self.add(&pairs, previous + " " + word, 1, clock: clock) }
        trim()
    }

    /// The user kept a word as typed (the literal slot, or a delete that took a correction back): known
    /// from now on, never corrected.
    public mutating func keep(_ word: String) {
        let word = word.lowercased()
        guard !word.isEmpty, word.count <= 40 else { return }
        clock += 1
        let now = count(of: word)
        if now < Self.known { Self.add(&words, word, Self.known - now, clock: clock) }
        trim()
    }

    private static func add(_ table: inout [String: Entry], _ key: String, _ amount: Double, clock: Int) {
        let old = table[key].map { worth($0, at: clock) } ?? 0
        table[key] = Entry(count: old + amount, time: clock)
    }

    private mutating func trim() {
        if words.count > Self.maxWords { words = dropWorst(words, to: Self.maxWords * 9 / 10) }
        if pairs.count > Self.maxPairs { pairs = dropWorst(pairs, to: Self.maxPairs * 9 / 10) }
    }

    private func dropWorst(_ table: [String: Entry], to size: Int) -> [String: Entry] {
        let kept = table.sorted { worth($0.value) > worth($1.value) }.prefix(size)
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    // MARK: - The file

    static let header = "keypane-learned 1"

    /// The file's text: a header, the clock, the touch model's row offsets, then one line per word and pair.
    public func serialized() -> String {
        var lines = [Self.header, "clock\t\(clock)"]
        for (row, offset) in touch.rowOffsets.sorted(by: { $0.key < $1.key }) {
            lines.append("row\t\(row)\t\(offset.x)\t\(offset.y)\t\(offset.taps)")
        }
        for (word, entry) in words.sorted(by: { $0.key < $1.key }) {
            lines.append("word\t\(word)\t\(entry.count)\t\(entry.time)")
        }
        for (pair, entry) in pairs.sorted(by: { $0.key < $1.key }) {
            lines.append("pair\t\(pair)\t\(entry.count)\t\(entry.time)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads the file's text. Lines it does not understand are skipped and counted in `skipped`.
    public init(serialized text: String) throws(UserWordsError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first.map(String.init) == Self.header else { throw .notLearnedWords }
        lines.removeFirst()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("clock", 2):
                if let value = Int(fields[1]) { clock = value } else { skipped += 1 }
            case ("row", 5):
                if let row = Int(fields[1]), let x = Double(fields[2]), let y = Double(fields[3]), let taps = Int(fields[4]),
                   x.isFinite, y.isFinite {
                    touch.rowOffsets[row] = TouchModel.Offset(x: max(-0.3, min(0.3, x)), y: max(-0.3, min(0.3, y)), taps: max(0, taps))
                } else { skipped += 1 }
            case ("word", 4), ("pair", 4):
                guard let count = Double(fields[2]), count.isFinite, count > 0, let time = Int(fields[3]), !fields[1].isEmpty else {
                    skipped += 1
                    continue
                }
                if fields[0] == "word" { words[fields[1]] = Entry(count: count, time: time) } else {
                    pairs[fields[1]] = Entry(count: count, time: time)
                }
            default:
                skipped += 1
            }
        }
        trim()
    }

    /// Lines of the file that were not understood.
    public private(set) var skipped = 0

    public static func == (a: Self, b: Self) -> Bool {
        a.words == b.words && a.pairs == b.pairs && a.clock == b.clock && a.touch == b.touch
    }
}

public enum UserWordsError: Error, Equatable, CustomStringConvertible {
    case notLearnedWords
    case io(String, String)

    public var description: String {
        switch self {
        case .notLearnedWords: "not a file of learned words (its first line is not '\(UserWords.header)')"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// The file of learned words: read at start, written atomically, mode 0600, in a folder made 0700.
public struct LearnedFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_DATA_HOME/keypane/learned-LANGUAGE` (else `~/.local/share/keypane/...`).
    public static func standard(language: String, environment: [String: String]) -> LearnedFile? {
        folder(environment: environment).map { LearnedFile(path: $0 + "/learned-" + language) }
    }

    /// The folder the learned words of every language are kept in: `$XDG_DATA_HOME/keypane`.
    public static func folder(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/keypane" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/keypane" }
        return nil
    }

    /// Removes the learned words of every language in a folder (keypane forget); the paths removed.
    @discardableResult
    public static func removeAll(in folder: String) throws(UserWordsError) -> [String] {
        guard let directory = opendir(folder) else {
            if errno == ENOENT { return [] }
            throw .io(folder, String(cString: strerror(errno)))
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("learned-") { names.append(name) }
        }
        closedir(directory)
        var removed: [String] = []
        for name in names.sorted() where try LearnedFile(path: folder + "/" + name).remove() {
            removed.append(folder + "/" + name)
        }
        return removed
    }

    /// The words learned, or a new store when there is no file. A file that cannot be read is an error:
    /// it is left alone (never overwritten) and the keyboard learns nothing this run.
    public func load() throws(UserWordsError) -> UserWords {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return UserWords() }
            throw .io(path, String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 { throw .io(path, String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > 8 << 20 { throw .io(path, "larger than 8 MB") }
        }
        do {
            return try UserWords(serialized: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .io(path, error.description)
        }
    }

    /// Writes the words: a temporary file beside it (0600), synced, renamed over the old one.
    public func save(_ words: UserWords) throws(UserWordsError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try Self.makeFolders(folder) }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io(temporary, String(cString: strerror(errno))) }
        fchmod(fd, 0o600)
        let bytes = Array(words.serialized().utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw .io(temporary, reason)
            }
            written += count
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(temporary, reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path, reason)
        }
    }

    /// Removes the file (keypane forget). True when there was one.
    @discardableResult
    public func remove() throws(UserWordsError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw .io(path, String(cString: strerror(errno)))
    }

    static func makeFolders(_ folder: String) throws(UserWordsError) {
        var current = ""
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw .io(current, String(cString: strerror(errno))) }
        }
    }
}
