internal import Basics
#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel
import X11Host
import XDisplay

/// The languages whose keyboards a start enables, in Globe order: those `--languages` (or the settings'
/// `languages`) names, else those of the X keymap's layouts (setxkbmap -layout us,de) and of the locale.
/// A language's keyboard is its layout (`Language.keyboard`): de.layout, ru.layout; US English's is the
/// default keyboard.
struct LanguageChoice {
    /// The tags, normalized (de, en-GB), without repeats.
    let tags: [String]
    /// Whether the user named them (else they were found).
    let named: Bool

    /// `listed`: the languages the settings name, if they do.
    init(named listed: [String]?, connection: DisplayConnection) {
        named = listed != nil
        var found = listed ?? []
        if listed == nil {
            found = connection.keymapLayouts().compactMap(Language.ofKeymapLayout)
            for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
                guard let value = getenv(name), value.pointee != 0 else { continue }
                if let tag = Language.ofLocale(String(cString: value)) { found.append(tag) }
                break
            }
        }
        var seen = Set<String>()
        tags = found.filter { seen.insert($0).inserted }
    }

    /// The layouts that may be these languages' keyboards, to read before the first frame.
    var candidates: [String] {
        tags.flatMap { [$0.lowercased(), String($0.lowercased().prefix { $0 != "-" })] } + ["default"]
    }

    /// The languages' keyboards among the layouts there are, in order (the default keyboard when none has
    /// one); a named language without a keyboard is said.
    func keyboards(among available: [String]) -> [String] {
        var names: [String] = []
        for tag in tags {
            guard let name = Language.keyboard(for: tag, among: available) else {
                if named {
                    let languages = ["en-US"] + available.compactMap { KeyboardType(rawValue: $0) == nil ? Language.normalized($0) : nil }
                    warn("no keyboard for the language '\(tag)' in --languages (there are keyboards for "
                         + "\(languages.joined(separator: ", "))); left out")
                }
                continue
            }
            if !names.contains(name) { names.append(name) }
        }
        return names.isEmpty && available.contains("default") ? ["default"] : names
    }
}
