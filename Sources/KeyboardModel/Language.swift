/// Languages, as the layouts and the settings name them: BCP 47 tags of a language and an optional region
/// (de, en-GB, pt-BR). A language's keyboard is the layout file named by its tag in lower case (de.layout,
/// pt-br.layout); US English's is the default keyboard.
public enum Language {
    /// Whether a text is a tag: two or three lower-case letters, then optionally a hyphen and a region of
    /// two upper-case letters or three digits.
    public static func isTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, (2...3).contains(parts[0].count),
              parts[0].unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else { return false }
        guard parts.count == 2 else { return true }
        let region = parts[1].unicodeScalars
        return (region.count == 2 && region.allSatisfy { ("A"..."Z").contains($0) })
            || (region.count == 3 && region.allSatisfy { ("0"..."9").contains($0) })
    }

    /// A tag as people write it (DE, de_de, pt-br) in the settings' form (de, de-DE, pt-BR); nil for one
    /// that is not a tag even so.
    public static func normalized(_ text: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        let tag = parts.count == 1 ? parts[0].lowercased() : parts[0].lowercased() + "-" + parts[1].uppercased()
        return isTag(tag) ? tag : nil
    }

    /// The keyboard (layout name) for a language among those there are: the layout named by the tag, else
    /// by its language alone (de-AT: de), else for English the default keyboard; nil when there is none.
    /// Layouts named after keyboard types (url) are not languages'.
    public static func keyboard(for tag: String, among available: [String]) -> String? {
        // Names of keyboard types (url) are never a language's.
        let isLanguages = { (name: String) in available.contains(name) && KeyboardType(rawValue: name) == nil }
        let name = tag.lowercased()
        if isLanguages(name) { return name }
        let language = String(name.prefix { $0 != "-" })
        if language != "en", isLanguages(language) { return language }
        if language == "en" { return available.contains("default") ? "default" : nil }
        return nil
    }

    /// The languages there are keyboards for, each named in its own words, as the settings panel lists them.
    public static let named: [(tag: String, title: String)] = [
        ("en-US", "English (US)"), ("en-GB", "English (UK)"), ("da", "Dansk"), ("de", "Deutsch"),
        ("el", "Ελληνικά"), ("es", "Español"), ("fr", "Français"), ("it", "Italiano"), ("nb", "Norsk bokmål"),
        ("nl", "Nederlands"), ("pl", "Polski"), ("pt-BR", "Português (Brasil)"), ("ru", "Русский"),
        ("sv", "Svenska"), ("tr", "Türkçe"), ("uk", "Українська"),
    ]

    /// A tag's primary language: "pt" of "pt-BR".
    public static func primary(_ tag: String) -> String { String(tag.prefix { $0 != "-" }) }

    /// The language an XKB layout (setxkbmap's names: us, de, ru) is written in, for the languages there
    /// are keyboards for.
    public static func ofKeymapLayout(_ name: String) -> String? {
        let languages = ["us": "en-US", "gb": "en-GB", "de": "de", "fr": "fr", "es": "es", "it": "it",
                         "br": "pt-BR", "nl": "nl", "se": "sv", "dk": "da", "no": "nb", "pl": "pl", "ru": "ru",
                         "ua": "uk", "gr": "el", "tr": "tr"]
        return languages[name]
    }

    /// The language of a locale (LANG's form: de_DE.UTF-8, pt_BR, en_GB@euro); nil for C and POSIX.
    public static func ofLocale(_ locale: String) -> String? {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        guard name != "C", name != "POSIX", !name.isEmpty else { return nil }
        let parts = name.split(separator: "_")
        guard let first = parts.first else { return nil }
        // A region only for the languages whose keyboards differ by it.
        if parts.count == 2, ["en", "pt"].contains(first) { return normalized(first + "-" + parts[1]) }
        return normalized(String(first))
    }
}
