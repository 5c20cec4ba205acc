/// The quotation marks a language writes, which smart quotes type: the double pair, the single pair (its
/// closing mark is also the apostrophe), and the space a language puts inside its marks (French: a narrow
/// no-break space, U+202F).
public struct Quotes: Equatable, Sendable {
    public var doubleOpen: String, doubleClose: String
    public var singleOpen: String, singleClose: String
    /// Sent after an opening double mark and before a closing one.
    public var inside: String

    public init(_ doubleOpen: String, _ doubleClose: String, _ singleOpen: String, _ singleClose: String,
                inside: String = "") {
        (self.doubleOpen, self.doubleClose, self.singleOpen, self.singleClose, self.inside) =
            (doubleOpen, doubleClose, singleOpen, singleClose, inside)
    }

    public static let english = Quotes("“", "”", "‘", "’")

    /// The marks of a language (a tag: de, fr, pt-BR), after CLDR's delimiters; English's for a language
    /// not listed, or none.
    public init(language: String?) {
        let primary = language.map { String($0.prefix { $0 != "-" }) } ?? "en"
        switch primary {
        case "de", "da": self = Quotes("„", "“", "‚", "’")
        case "fr": self = Quotes("«", "»", "‘", "’", inside: "\u{202F}")
        case "ru", "uk", "es", "it", "el", "nb": self = Quotes("«", "»", "‘", "’")
        case "pl", "nl": self = Quotes("„", "”", "‘", "’")
        case "sv": self = Quotes("”", "”", "’", "’")
        default: self = .english
        }
    }

    /// Marks after which a quote opens rather than closes: brackets and every opening mark.
    var openers: String { "([{" + doubleOpen + singleOpen + "“‘«„‚" }
}
