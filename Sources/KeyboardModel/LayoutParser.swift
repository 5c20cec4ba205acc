/// Reads the layout file format (see Assets/layouts/README.md).
///
/// Parsing yields a `LayoutSource`: the file's own statements. `LayoutLibrary` resolves `inherit`
/// and checks the result, so that every message names the file and line it is about.
struct LayoutSource: Sendable {
    var name: String
    var file: String
    var type: (KeyboardType, SourceLocation)?
    var title: String?
    var language: String?
    /// `label` lines: the words on function keys, by `Layout.labelNames`.
    var labels: [String: String] = [:]
    var layers: ([String], SourceLocation)?
    var inherit: (String, SourceLocation)?
    var sections: [Section] = []

    struct Section: Sendable {
        var layer: String
        var classes: [WidthClass]
        var derivedFrom: String?
        var rows: [RowLine] = []
        var location: SourceLocation
    }

    enum RowLine: Sendable {
        case row(Row)
        /// `same`: the inherited row at this position.
        case same(SourceLocation)
    }
}

enum LayoutParser {
    static let directives = "type, title, language, label, layers, inherit, layer, row or same"

    static func parse(_ text: String, name: String, file: String) throws(LayoutError) -> LayoutSource {
        var source = LayoutSource(name: name, file: file)
        var lineNumber = 0
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            // Byte by byte where each Unicode scalar is a character of its own (every line of most layouts:
            // no scalar below U+0300, a lead byte below 0xCC, joins another), which spares decoding and
            // grapheme breaking; else character by character, so that a keycap or a skin-toned emoji stays
            // one key.
            if !bytes.contains(where: { $0 >= 0xCC }) || Substring(bytes).count == Substring(bytes).unicodeScalars.count {
                var scanner = Scanner(line: bytes.map(UTF8Unit.init), file: file, lineNumber: lineNumber)
                try parseLine(&scanner, into: &source)
            } else {
                var scanner = Scanner(line: Array(Substring(bytes)), file: file, lineNumber: lineNumber)
                try parseLine(&scanner, into: &source)
            }
        }
        return source
    }

    /// One line's statement, added to `source`.
    static func parseLine<Unit>(_ scanner: inout Scanner<Unit>, into source: inout LayoutSource) throws(LayoutError) {
        scanner.skipSpaces()
        if scanner.atEnd || scanner.peek == "#" { return }
        let word = scanner.word()
        let location = scanner.location(at: 0)
        switch word {
        case "type":
            let value = try scanner.requiredWord("a keyboard type (\(KeyboardType.allNames))")
            guard let type = KeyboardType(rawValue: value) else {
                throw scanner.error(
                    "unknown keyboard type '\(value)': expected one of \(KeyboardType.allNames)",
                    atToken: true)
            }
            source.type = (type, location)
        case "title":
            scanner.skipSpaces()
            source.title = try scanner.value(expected: "a title")
        case "language":
            let tag = try scanner.requiredWord("a language tag, such as de or pt-BR")
            guard Language.isTag(tag) else {
                throw scanner.error("bad language tag '\(tag)': expected a language and an optional region, "
                                    + "such as de, en-GB or pt-BR", atToken: true)
            }
            source.language = tag
        case "label":
            let names = Layout.labelNames.joined(separator: ", ")
            let key = try scanner.requiredWord("the key to label (\(names))")
            guard Layout.labelNames.contains(key) else {
                throw scanner.error("unknown key '\(key)' to label: expected one of \(names)", atToken: true)
            }
            guard source.labels[key] == nil else {
                throw scanner.error("the \(key) key is labelled twice", atToken: true)
            }
            scanner.skipSpaces()
            source.labels[key] = try scanner.value(expected: "the label, such as \"Suchen\"")
        case "layers":
            var names: [String] = []
            while case let name = scanner.word(), !name.isEmpty {
                try checkLayerName(name, scanner: scanner)
                if names.contains(name) {
                    throw scanner.error("layer '\(name)' is listed twice", atToken: true)
                }
                names.append(name)
            }
            guard !names.isEmpty else { throw scanner.error("expected one or more layer names") }
            source.layers = (names, location)
        case "inherit":
            let parent = try scanner.requiredWord("the name of a layout to inherit from")
            source.inherit = (parent, location)
        case "layer":
            let layer = try scanner.requiredWord("a layer name")
            try checkLayerName(layer, scanner: scanner)
            var section = LayoutSource.Section(
                layer: layer, classes: WidthClass.allCases, location: location)
            var next = scanner.word()
            if let widthClass = WidthClass(rawValue: next) {
                section.classes = [widthClass]
                next = scanner.word()
            }
            if next == "from" {
                section.derivedFrom = try scanner.requiredWord("the layer to derive from")
                next = scanner.word()
            }
            guard next.isEmpty else {
                throw scanner.error(
                    "unexpected '\(next)': expected compact, regular or 'from LAYER'", atToken: true)
            }
            source.sections.append(section)
        case "row", "same":
            guard !source.sections.isEmpty else {
                throw scanner.error("'\(word)' before any 'layer' line: expected 'layer NAME' first",
                                    atToken: true)
            }
            guard source.sections[source.sections.count - 1].derivedFrom == nil else {
                throw scanner.error("a layer derived with 'from' takes no rows", atToken: true)
            }
            if word == "same" {
                try scanner.expectEnd()
                source.sections[source.sections.count - 1].rows.append(.same(location))
            } else {
                let items = try scanner.rowItems()
                source.sections[source.sections.count - 1].rows.append(
                    .row(Row(items: items, location: location)))
            }
        default:
            throw LayoutError(location, "unknown statement '\(word)': expected \(directives)")
        }
        if word != "row" && word != "layer" && word != "same" { try scanner.expectEnd() }
    }

    static func checkLayerName<Unit>(_ name: String, scanner: Scanner<Unit>) throws(LayoutError) {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        guard allowed else {
            throw scanner.error("bad layer name '\(name)': expected lower-case letters, digits and '-'",
                                atToken: true)
        }
    }
}

/// What a line is read in: characters, or UTF-8 code units where each Unicode scalar is a character of
/// its own. Every unit the format gives a meaning to (spaces, `#`, quotes, the modifiers) is ASCII.
protocol ScanUnit: Equatable, ExpressibleByUnicodeScalarLiteral {
    /// The unit's ASCII code, nil for any other.
    var asciiValue: UInt8? { get }
    /// The text of a run of units.
    static func text(_ units: ArraySlice<Self>) -> String
    /// How many characters a run of units holds (columns count characters).
    static func characters(_ units: ArraySlice<Self>) -> Int
}

extension Character: ScanUnit {
    static func text(_ units: ArraySlice<Character>) -> String { String(units) }
    static func characters(_ units: ArraySlice<Character>) -> Int { units.count }
}

/// One byte of a line's UTF-8.
struct UTF8Unit: ScanUnit {
    let byte: UInt8
    init(_ byte: UInt8) { self.byte = byte }
    init(unicodeScalarLiteral scalar: Unicode.Scalar) { byte = UInt8(scalar.value) }
    var asciiValue: UInt8? { byte < 0x80 ? byte : nil }
    static func text(_ units: ArraySlice<UTF8Unit>) -> String {
        units.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
    /// Each scalar is a character here: the bytes that start one.
    static func characters(_ units: ArraySlice<UTF8Unit>) -> Int { units.count { $0.byte & 0xC0 != 0x80 } }
}

/// Reads one line of a layout file, unit by unit; columns count characters.
struct Scanner<Unit: ScanUnit> {
    let line: [Unit]
    let file: String
    let lineNumber: Int
    var index = 0
    /// Where the last word, value or name read began.
    private var tokenStart = 0

    init(line: [Unit], file: String, lineNumber: Int) {
        self.line = line
        self.file = file
        self.lineNumber = lineNumber
    }

    static func isModifier(_ unit: Unit) -> Bool { unit == "*" || unit == "=" || unit == "^" || unit == "~" }
    static func isSpace(_ unit: Unit) -> Bool { unit == " " || unit == "\t" || unit == "\r" }
    /// An ASCII letter or digit (names of keysyms, actions and widths are ASCII).
    static func isAlphanumeric(_ unit: Unit) -> Bool {
        guard let code = unit.asciiValue else { return false }
        return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7A)
    }

    var atEnd: Bool { index >= line.count }
    var peek: Unit? { atEnd ? nil : line[index] }

    func location(at position: Int? = nil) -> SourceLocation {
        SourceLocation(file: file, line: lineNumber, column: Unit.characters(line[0..<(position ?? index)]) + 1)
    }

    /// An error at the current column, or (`atToken`) where the last word or value read began.
    func error(_ message: String, atToken: Bool = false) -> LayoutError {
        LayoutError(location(at: atToken ? tokenStart : index), message)
    }

    mutating func skipSpaces() {
        while let c = peek, Self.isSpace(c) { index += 1 }
    }

    /// The character at the current column.
    var current: String {
        var end = min(index + 1, line.count)
        while end < line.count, Unit.characters(line[end..<end + 1]) == 0 { end += 1 }
        return Unit.text(line[index..<end])
    }

    /// The run of units from here that `take` accepts, which becomes the last token read.
    private mutating func run(while take: (Unit) -> Bool) -> String {
        tokenStart = index
        while let c = peek, take(c) { index += 1 }
        return Unit.text(line[tokenStart..<index])
    }

    /// The next run of non-space characters, or "" at the end (or at a comment).
    mutating func word() -> String {
        skipSpaces()
        if peek == "#" {
            tokenStart = index
            return ""
        }
        return run { !Self.isSpace($0) }
    }

    mutating func requiredWord(_ expected: String) throws(LayoutError) -> String {
        let result = word()
        guard !result.isEmpty else { throw error("expected \(expected)") }
        return result
    }

    mutating func expectEnd() throws(LayoutError) {
        let rest = word()
        guard rest.isEmpty else {
            throw error("unexpected '\(rest)' at the end of the line", atToken: true)
        }
    }

    /// A quoted string with \" and \\ escapes, or a bare value up to a space or a modifier.
    mutating func value(expected: String, stoppingAt stop: Unit? = nil) throws(LayoutError) -> String {
        if peek == "\"" { return try quoted() }
        let result = run { !Self.isSpace($0) && $0 != stop && !Self.isModifier($0) }
        guard !result.isEmpty else { throw error("expected \(expected)") }
        return result
    }

    mutating func quoted() throws(LayoutError) -> String {
        let start = index
        tokenStart = start
        index += 1
        var result = ""
        var piece = index
        while let c = peek {
            switch c {
            case "\"":
                result += Unit.text(line[piece..<index])
                index += 1
                guard !result.isEmpty else {
                    throw LayoutError(location(at: start), "empty quotes: expected some text between them")
                }
                return result
            case "\\":
                result += Unit.text(line[piece..<index])
                index += 1
                guard let escaped = peek else { piece = index; continue }
                if escaped == "n" {
                    result += "\n"
                    index += 1
                    piece = index
                } else {
                    // The escaped character starts the next piece; stepping over its first unit keeps a
                    // quote or backslash from ending or escaping.
                    piece = index
                    index += 1
                }
            default:
                index += 1
            }
        }
        throw LayoutError(location(at: start), "unterminated quote: expected a closing '\"'")
    }

    /// The keys of a `row` line.
    mutating func rowItems() throws(LayoutError) -> [RowItem] {
        var items: [RowItem] = []
        while true {
            skipSpaces()
            guard let c = peek, c != "#" else { break }
            items.append(try rowItem(first: c))
        }
        guard !items.isEmpty else { throw error("expected one or more keys after 'row'") }
        return items
    }

    private mutating func rowItem(first: Unit) throws(LayoutError) -> RowItem {
        let start = index
        let function: KeyFunction?
        switch first {
        case "_":
            index += 1
            function = nil
        case "!":
            index += 1
            let name = run { Self.isAlphanumeric($0) || $0 == "_" }
            guard !name.isEmpty else { throw error("expected an X keysym name after '!', such as Return or F1") }
            function = .keysym(name)
        case "@":
            index += 1
            let name = run { Self.isAlphanumeric($0) || $0 == "-" || $0 == ":" }
            guard let action = KeyFunction(actionName: name) else {
                throw LayoutError(location(at: start),
                    "unknown key action '@\(name)': expected @shift, @caps-lock, @layer:NAME, @globe or @dismiss")
            }
            function = action
        case "\"":
            function = .text(try quoted())
        default:
            function = .text(try value(expected: "a key"))
        }
        var key = KeySpec(function: function ?? .text(""))
        while let c = peek, Self.isModifier(c) {
            index += 1
            switch c {
            case "*":
                let text = run { ($0.asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false) || $0 == "." }
                guard let width = Double(text), width > 0, width <= 100 else {
                    throw error("expected a width in key units after '*', a number such as 1.5", atToken: true)
                }
                key.width = width
            case "=": key.label = try value(expected: "a label after '='")
            case "^": key.secondary = try value(expected: "a secondary label after '^'")
            default:
                repeat {
                    if peek == "," { index += 1 }
                    key.alternates.append(try value(expected: "alternates after '~', separated by commas",
                                                    stoppingAt: ","))
                } while peek == ","
            }
        }
        if let c = peek, !Self.isSpace(c) {
            throw error("unexpected '\(current)' in a key: expected a space or one of * = ^ ~")
        }
        if function == nil {
            guard key.label == nil && key.secondary == nil && key.alternates.isEmpty else {
                throw LayoutError(location(at: start), "a gap '_' takes only a width, such as _*0.5")
            }
            return .gap(key.width)
        }
        return .key(key)
    }
}
