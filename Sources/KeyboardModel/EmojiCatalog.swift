/// The emoji the emoji keyboard offers, read from Unicode's emoji-test.txt (Debian's unicode-data):
/// every fully-qualified emoji, in the file's order, in the groups of iOS's emoji keyboard.
///
/// An emoji with a skin tone is not a key of its own: the five single-tone forms are its alternates
/// (held, the key offers them). Two people or two hands whose tones can differ (a handshake of a light and a
/// dark hand) offer all 25 forms, a grid with the left one's tone by row and the right one's by column.
public struct EmojiCatalog: Sendable {
    public struct Emoji: Equatable, Sendable {
        /// The emoji's code points.
        public var text: String
        /// Its name in the file (lower case, English): "waving hand", "flag: Germany".
        public var name: String
        /// The five single skin-tone forms, light to dark; empty for an emoji without tones.
        public var tones: [String]
        /// For two people or hands whose tones can differ: the 25 forms, row by row, the left one's tone
        /// by row and the right one's by column, light to dark (the same tones are `tones`); else empty.
        public var pairs: [String]

        public init(text: String, name: String, tones: [String] = [], pairs: [String] = []) {
            self.text = text
            self.name = name
            self.tones = tones
            self.pairs = pairs
        }

        /// Every toned form: the pairs' grid where there is one, else the five tones.
        public var variants: [String] { pairs.isEmpty ? tones : pairs }

        /// What a held key offers: the toned forms in their order, and the emoji itself (first, or after a
        /// grid, where it would break the rows).
        public var alternates: [String] {
            if variants.isEmpty { return [] }
            return pairs.isEmpty ? [text] + tones : pairs + [text]
        }
    }

    /// A group: a tab of the emoji keyboard.
    public struct Group: Sendable {
        /// A short name, used in layer names: smileys, animals, ...
        public var id: String
        /// The emoji drawn on its tab.
        public var tab: String
        public var emoji: [Emoji]

        public init(id: String, tab: String, emoji: [Emoji]) {
            self.id = id
            self.tab = tab
            self.emoji = emoji
        }
    }

    public private(set) var groups: [Group]
    /// Where each emoji and toned form is: its group and place, by its exact code points.
    private var places: [CodePoints: (group: Int, index: Int)] = [:]

    /// A text as its exact code points, as a key: hashed and compared by its UTF-8 bytes, without the
    /// Unicode normalization a String key costs (which was most of the index's time). An emoji typed
    /// and an emoji listed are the same code points.
    struct CodePoints: Hashable {
        var text: String

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        static func == (a: CodePoints, b: CodePoints) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    }

    /// Where Debian keeps the file.
    public static let standardPath = "/usr/share/unicode/emoji/emoji-test.txt"

    /// The groups of the file as the keyboard shows them: iOS's tabs (people with the smileys), each with
    /// its tab's emoji. Component (the skin tone and hair swatches) is not shown.
    static let groupIDs: [String: (id: String, tab: String)] = [
        "Smileys & Emotion": ("smileys", "😀"), "People & Body": ("smileys", "😀"),
        "Animals & Nature": ("animals", "🐻"), "Food & Drink": ("food", "🍔"), "Activities": ("activity", "⚽"),
        "Travel & Places": ("travel", "🚗"), "Objects": ("objects", "💡"), "Symbols": ("symbols", "🔣"),
        "Flags": ("flags", "🏁"),
    ]

    public init(groups: [Group]) {
        self.groups = groups
        index()
    }

    private mutating func index() {
        places.reserveCapacity(groups.reduce(0) { $0 + $1.emoji.count * 2 })
        for (group, entries) in groups.enumerated() {
            for (index, emoji) in entries.emoji.enumerated() {
                places[CodePoints(text: emoji.text)] = (group, index)
                for text in emoji.variants { places[CodePoints(text: text)] = (group, index) }
            }
        }
    }

    /// Reads emoji-test.txt at `path` (Debian's, by default): a file that cannot be read, or a line that is
    /// not the file's form, is an error naming the file (and the line).
    public init(contentsOf path: String = EmojiCatalog.standardPath) throws(LayoutError) {
        try self.init(bytes: try LayoutLibrary.readBytes(path, utf8: true), file: path)
    }

    /// The first `count` emoji of the list at `path` and every group, the others empty: what the emoji
    /// keyboard's first page and tabs show, read in a fraction of the whole list's time, to draw them while
    /// the whole list is read (for a person new to emoji, holding the Globe key).
    public static func firstPage(contentsOf path: String = EmojiCatalog.standardPath, count: Int) throws(LayoutError) -> EmojiCatalog {
        try EmojiCatalog(bytes: try LayoutLibrary.readBytes(path), file: path, firstGroupLimit: count)
    }

    /// Reads the text of emoji-test.txt; `file` names it in messages. A line that is not the file's form
    /// is an error with its line number.
    public init(text: String, file: String) throws(LayoutError) {
        try self.init(bytes: Array(text.utf8), file: file)
    }

    /// Reads emoji-test.txt as bytes (UTF-8), its lines split and their fields read without making strings:
    /// going through it by Character was slow enough to be seen (docs/performance.md).
    /// With `firstGroupLimit`, the emoji after the first group's first few are passed over, and the groups
    /// left empty are kept.
    private init(bytes: [UInt8], file: String, firstGroupLimit: Int? = nil) throws(LayoutError) {
        groups = []
        var current: Int?
        // An emoji's place by its code points without tones and variation selectors, to find the emoji
        // a toned form belongs to.
        var places: [[UInt32]: (group: Int, index: Int)] = [:]
        // An emoji's place by its name, for the forms of two different tones, whose code points may differ
        // from their emoji's (the handshake's are two hands).
        var named: [String: (group: Int, index: Int)] = [:]
        var mixed: [(name: String, left: Int, right: Int, text: String)] = []
        let (space, semicolonByte, hashByte, newline) = (UInt8(ascii: " "), UInt8(ascii: ";"), UInt8(ascii: "#"), UInt8(ascii: "\n"))
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var range = range
            while let first = range.first, bytes[first] == space || bytes[first] == UInt8(ascii: "\t") { range = range.dropFirst() }
            while let last = range.last, bytes[last] == space || bytes[last] == UInt8(ascii: "\t") || bytes[last] == UInt8(ascii: "\r") {
                range = range.dropLast()
            }
            return range
        }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[trimmed(range)], as: UTF8.self) }
        let groupPrefix = Array("# group: ".utf8), qualified = Array("fully-qualified".utf8)
        var lineNumber = 0
        var lineStart = 0
        var scalars: [UInt32] = [], utf8: [UInt8] = []
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            let line = trimmed(lineStart..<lineEnd)
            lineNumber += 1
            if bytes[line].starts(with: groupPrefix) {
                let name = string(line.lowerBound + groupPrefix.count..<line.upperBound)
                guard let (id, tab) = Self.groupIDs[name] else { current = nil; continue }
                if let index = groups.firstIndex(where: { $0.id == id }) {
                    current = index
                } else {
                    groups.append(Group(id: id, tab: tab, emoji: []))
                    current = groups.count - 1
                }
                continue
            }
            if line.isEmpty || bytes[line.lowerBound] == hashByte { continue }
            if let firstGroupLimit, let first = groups.first, first.emoji.count >= firstGroupLimit { continue }
            // 1F44B 1F3FD    ; fully-qualified     # 👋🏽 E1.0 waving hand: medium skin tone
            let location = SourceLocation(file: file, line: lineNumber)
            guard let semicolon = bytes[line].firstIndex(of: semicolonByte), let hash = bytes[line].firstIndex(of: hashByte) else {
                throw LayoutError(location, "expected code points, ';', a status and '#' with the emoji's name")
            }
            guard semicolon < hash, bytes[trimmed(semicolon + 1..<hash)].elementsEqual(qualified), let group = current else {
                continue
            }
            // The code points, in hexadecimal, separated by spaces.
            scalars.removeAll(keepingCapacity: true)
            var index = line.lowerBound
            while index < semicolon {
                if bytes[index] == space { index += 1; continue }
                let start = index
                var value: UInt32 = 0, digits = 0
                while index < semicolon, bytes[index] != space {
                    let byte = bytes[index]
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte - UInt8(ascii: "0"))
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
                    default: digits = 9
                    }
                    digits += 1
                    index += 1
                }
                guard digits <= 8, Unicode.Scalar(value) != nil else {
                    throw LayoutError(location, "'\(string(start..<index))' is not a code point in hexadecimal")
                }
                scalars.append(value)
            }
            // The comment: the emoji, its version (E1.0) and its name.
            let afterHash = trimmed(hash + 1..<line.upperBound)
            let emojiEnd = bytes[afterHash].firstIndex(of: space) ?? afterHash.upperBound
            let version = trimmed(emojiEnd..<afterHash.upperBound)
            let versionEnd = bytes[version].firstIndex(of: space) ?? version.upperBound
            guard !scalars.isEmpty, versionEnd < version.upperBound, bytes[version.lowerBound] == UInt8(ascii: "E") else {
                throw LayoutError(location, "expected code points and, after '#', the emoji, its version and its name")
            }
            // The text from the code points: the comment's copy of the emoji is for people.
            utf8.removeAll(keepingCapacity: true)
            for value in scalars { UTF8.encode(Unicode.Scalar(value)!) { utf8.append($0) } }
            let text = String(decoding: utf8, as: UTF8.self)
            let name = string(versionEnd + 1..<version.upperBound)
            let toned = scalars.filter { (0x1F3FB...0x1F3FF).contains($0) }
            if toned.isEmpty {
                places[scalars.filter { $0 != 0xFE0F }] = (group, groups[group].emoji.count)
                named[name] = (group, groups[group].emoji.count)
                groups[group].emoji.append(Emoji(text: text, name: name))
            } else if toned.allSatisfy({ $0 == toned[0] }),
                      let place = places[scalars.filter { !(0x1F3FB...0x1F3FF).contains($0) && $0 != 0xFE0F }] {
                groups[place.group].emoji[place.index].tones.append(text)
            } else if toned.count == 2 {
                mixed.append((name, Int(toned[0] - 0x1F3FB), Int(toned[1] - 0x1F3FB), text))
            }
        }
        // The forms of two different tones, by their emoji's name: "handshake: light skin tone, dark skin
        // tone" is the handshake's, "kiss: woman, man, light skin tone, dark skin tone" that of "kiss: woman,
        // man", and "kiss: person, person, ..." that of "kiss".
        var grids: [String: (place: (group: Int, index: Int), forms: [Int: String])] = [:]
        for form in mixed {
            let (head, tail) = Self.split(form.name)
            let people = tail.filter { !$0.hasSuffix("skin tone") }
            guard let place = named[people.isEmpty ? head : head + ": " + people.joined(separator: ", ")] ?? named[head]
            else { continue }
            let id = groups[place.group].emoji[place.index].text
            grids[id, default: (place, [:])].forms[form.left * 5 + form.right] = form.text
        }
        for (place, forms) in grids.values {
            let tones = groups[place.group].emoji[place.index].tones
            guard tones.count == 5, forms.count == 20 else { continue }
            groups[place.group].emoji[place.index].pairs = (0..<25).map { $0 / 5 == $0 % 5 ? tones[$0 / 5] : forms[$0]! }
        }
        if firstGroupLimit == nil { groups.removeAll { $0.emoji.isEmpty } }
        index()
    }

    /// A name's head and the parts after its colon: ("kiss", ["woman", "man", "light skin tone"]).
    private static func split(_ name: String) -> (String, [String]) {
        guard let colon = name.firstIndex(of: ":") else { return (name, []) }
        let parts = name[name.index(after: colon)...].split(separator: ",").map { String($0.trimmingSpaces) }
        return (String(name[..<colon]), parts)
    }

    /// The emoji whose name has a word starting with each word of the query (case ignored), those whose
    /// name starts with the query first; at most `limit`.
    public func search(_ query: String, limit: Int) -> [Emoji] {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty else { return [] }
        let whole = words.joined(separator: " ")
        var first: [Emoji] = [], rest: [Emoji] = []
        for group in groups {
            for emoji in group.emoji {
                let name = emoji.name.lowercased()
                let nameWords = name.split { !$0.isLetter && !$0.isNumber }
                guard words.allSatisfy({ word in nameWords.contains { $0.hasPrefix(word) } }) else { continue }
                if name.hasPrefix(whole) { first.append(emoji) } else { rest.append(emoji) }
                if first.count >= limit { return first }
            }
        }
        return Array((first + rest).prefix(limit))
    }

    /// The emoji of a text, if the catalog has it as a key or a toned form: the key's emoji.
    public func emoji(containing text: String) -> Emoji? {
        places[CodePoints(text: text)].map { groups[$0.group].emoji[$0.index] }
    }
}

extension Substring {
    /// The text without the spaces and tabs around it.
    public var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
