/// The settings panel's words in one language: English as written in the code, or each English text's
/// translation from a gettext PO file (`panel/TAG.po` in the data folder), English where it has none.
public struct PanelWords: Sendable {
    /// The language's tag (de, pt-br); en for English.
    public let language: String
    public let translations: [String: String]

    public static let english = PanelWords(language: "en", translations: [:])

    public init(language: String, translations: [String: String]) {
        self.language = language
        self.translations = translations
    }

    /// The words for an English text.
    public func callAsFunction(_ english: String) -> String { translations[english] ?? english }

    /// A PO file's translations: its `msgid`/`msgstr` pairs, each string possibly continued over lines
    /// of quoted text. The header (the empty msgid) and untranslated entries are left out; a line the
    /// format does not allow throws, named with the file and line.
    public static func parse(_ text: String, file: String) throws -> [String: String] {
        var translations: [String: String] = [:]
        var id: String?, string: String?
        func finish() {
            if let id, let string, !id.isEmpty, !string.isEmpty { translations[id] = string }
            id = nil
            string = nil
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces
            let problem = { (what: String) in PanelWordsError(file: file, line: index + 1, problem: what) }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("msgid ") {
                finish()
                id = try quoted(line.dropFirst(6), problem)
            } else if line.hasPrefix("msgstr ") {
                guard id != nil, string == nil else { throw problem("msgstr without its msgid") }
                string = try quoted(line.dropFirst(7), problem)
            } else if line.hasPrefix("\"") {
                // A quoted line continues the string before it.
                let more = try quoted(line, problem)
                if let before = string { string = before + more } else if let before = id { id = before + more } else {
                    throw problem("a quoted line before any msgid")
                }
            } else {
                throw problem("expected msgid, msgstr, a quoted line or a comment")
            }
        }
        finish()
        return translations
    }

    /// The text of a quoted PO string, its escapes (\" \\ \n \t) undone.
    private static func quoted(_ text: Substring, _ problem: (String) -> PanelWordsError) throws -> String {
        let text = text.trimmingSpaces
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { throw problem("expected a quoted string") }
        var result = "", escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\": result.append(character)
                default: throw problem("unknown escape \\\(character)")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                throw problem("a quote inside a string must be written \\\"")
            } else {
                result.append(character)
            }
        }
        guard !escaped else { throw problem("a string ends in a lone \\") }
        return result
    }

    /// The language the panel speaks: the first of the locale's languages (LANGUAGE, then LC_ALL,
    /// LC_MESSAGES, LANG, as gettext reads them) that `available` has words for, English when the locale
    /// names English or another language; when the locale names none (unset, C, POSIX), the first of the
    /// keyboard's `languages` that has words. `available` holds tags in lower case (de, pt-br).
    public static func language(environment: [String: String], keyboards languages: [String],
                                available: Set<String>) -> String {
        let find = { (tag: String) -> String? in
            let tag = String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
            if available.contains(tag) { return tag }
            let primary = String(tag.prefix { $0 != "-" })
            if primary == "en" { return "en" }
            return available.contains(primary) ? primary : nil
        }
        var named = false
        let locales = (environment["LANGUAGE"].map { $0.split(separator: ":").map(String.init) } ?? [])
            + [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]].compactMap { $0 }
        for locale in locales where !locale.isEmpty {
            // de_DE.UTF-8@euro: the language and region only.
            let tag = String(locale.prefix { $0 != "." && $0 != "@" })
            guard tag != "C", tag != "POSIX" else { continue }
            named = true
            if let found = find(tag) { return found }
        }
        if !named { return languages.lazy.compactMap(find).first ?? "en" }
        return "en"
    }
}

/// A panel translation file that breaks the PO format: its file, line and what is wrong.
public struct PanelWordsError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var problem: String
    public var description: String { "\(file):\(line): \(problem)" }
}
