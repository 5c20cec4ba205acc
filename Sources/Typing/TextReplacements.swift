internal import KeyboardModel

/// Text replacement, as iOS has it: shortcuts the user keeps ("omw") and the phrases they stand for ("On
/// my way!"). Typed and followed by space or punctuation, a shortcut becomes its phrase, as a correction
/// does, and a delete right after takes it back.
///
/// Kept one a line, the shortcut, a tab, the phrase; lines starting with # are comments.
public struct TextReplacements: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var shortcut: String
        public var phrase: String
        public init(shortcut: String, phrase: String) {
            self.shortcut = shortcut
            self.phrase = phrase
        }
    }

    /// In the order they were added.
    public private(set) var entries: [Entry]

    /// What a new user starts with, as on iOS.
    public static let standard = TextReplacements(entries: [Entry(shortcut: "omw", phrase: "On my way!")])

    public init(entries: [Entry] = []) { self.entries = entries }

    /// Reads a file's text; a line that is not a shortcut and a phrase is said (with `file` and its line)
    /// and left out.
    public init(text: String, file: String, problems: inout [String]) {
        entries = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let entry = Self.entry(String(parts[0]), String(parts[1])) else {
                problems.append("\(file):\(number + 1): expected a shortcut (one word), a tab and a phrase")
                continue
            }
            set(entry.shortcut, entry.phrase)
        }
    }

    /// A shortcut is one word (letters, digits, apostrophes), a phrase any text of one line.
    static func entry(_ shortcut: String, _ phrase: String) -> Entry? {
        let shortcut = String(shortcut[...].trimmingSpaces), phrase = String(phrase[...].trimmingSpaces)
        guard !shortcut.isEmpty, !phrase.isEmpty, !phrase.contains("\n"), !phrase.contains("\t"),
              shortcut.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "'" }) else { return nil }
        return Entry(shortcut: shortcut.lowercased(), phrase: phrase)
    }

    /// Adds a shortcut, or gives one its new phrase; false when it is no word or the phrase is empty.
    @discardableResult
    public mutating func set(_ shortcut: String, _ phrase: String) -> Bool {
        guard let entry = Self.entry(shortcut, phrase) else { return false }
        if let index = entries.firstIndex(where: { $0.shortcut == entry.shortcut }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
        return true
    }

    /// Removes a shortcut; false when there is none.
    @discardableResult
    public mutating func remove(_ shortcut: String) -> Bool {
        let before = entries.count
        entries.removeAll { $0.shortcut == shortcut.lowercased() }
        return entries.count != before
    }

    /// The phrase a typed word stands for, if it is a shortcut (in any case).
    public func phrase(for typed: String) -> String? {
        let lower = typed.lowercased()
        return entries.first { $0.shortcut == lower }?.phrase
    }

    /// The file's text.
    public var serialized: String {
        "# Keypane's text replacements: a shortcut, a tab, the phrase it stands for.\n"
            + entries.map { "\($0.shortcut)\t\($0.phrase)\n" }.joined()
    }
}
