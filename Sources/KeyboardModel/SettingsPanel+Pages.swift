/// The settings panel's pages and rows, the choices its rows cycle through, and the keyboards its
/// Keyboards page offers.
extension SettingsPanel {
    static let choices: [String: [Choice]] = [
        "theme": [Choice("light", "Light"), Choice("dark", "Dark"), Choice("high-contrast", "High Contrast"),
                  Choice("high-contrast-dark", "High Contrast Dark"), Choice("desktop", "As the Desktop")],
        "label-size": [Choice(nil, "100%"), Choice("125", "125%"), Choice("150", "150%"), Choice("200", "200%"),
                       Choice("75", "75%")],
        "height": [Choice(nil, "Standard"), Choice("40%", "40% of the screen"), Choice("50%", "50% of the screen"),
                   Choice("30%", "30% of the screen")],
        "volume": [Choice(nil, "100%"), Choice("25", "25%"), Choice("50", "50%"), Choice("75", "75%")],
        "autocapitalization": [Choice(nil, "Keyboard's own"), Choice("none", "None"), Choice("words", "Words"),
                               Choice("sentences", "Sentences"), Choice("all", "All")],
        "long-press": [Choice(nil, "0.45 s"), Choice("0.6", "0.6 s"), Choice("0.8", "0.8 s"), Choice("1", "1 s"),
                       Choice("1.5", "1.5 s"), Choice("0.3", "0.3 s")],
        "scan": [Choice(nil, "Off"), Choice("auto", "Auto"), Choice("step", "Step")],
        "scan-interval": [Choice(nil, "1 s"), Choice("1.5", "1.5 s"), Choice("2", "2 s"), Choice("3", "3 s"),
                          Choice("0.5", "0.5 s"), Choice("0.75", "0.75 s")],
        "dwell": [Choice(nil, "Off"), Choice("0.8", "0.8 s"), Choice("1", "1 s"), Choice("1.5", "1.5 s"),
                  Choice("2", "2 s"), Choice("0.5", "0.5 s")],
        "slow-keys": [Choice(nil, "Off"), Choice("0.3", "0.3 s"), Choice("0.5", "0.5 s"), Choice("1", "1 s")],
        "bounce-keys": [Choice(nil, "Off"), Choice("0.3", "0.3 s"), Choice("0.5", "0.5 s"), Choice("1", "1 s")],
        "auto-show": [Choice(nil, "Automatic"), Choice("focus", "Any focused field"),
                      Choice("touch", "Fields touched"), Choice("never", "Always shown")],
    ]

    static func pages(keyboards: [(name: String, title: String)], about: [(title: String, detail: String)],
                      replacements: [(shortcut: String, phrase: String)], values: [String: String],
                      words w: PanelWords) -> [Page] {
        [
            Page(id: home, title: w("Keyboard Settings"), rows: [
                SettingRow("page:keyboards", w("Keyboards"), w("Languages, keyboards and their order"), .page),
                SettingRow("page:typing", w("Typing"), w("Capitals, corrections, suggestions, keys held"), .page),
                SettingRow("page:look", w("Look and Size"), w("Theme, height, labels, docked or floating"), .page),
                SettingRow("page:sound", w("Sound"), w("The input click"), .page),
                SettingRow("page:accessibility", w("Accessibility"), w("Switch scanning, dwell, slow, bounce and sticky keys"),
                           .page),
                SettingRow("page:privacy", w("Privacy"), w("What the keyboard learns and keeps"), .page),
                SettingRow("page:showing", w("When to Show"), w("Which fields bring the keyboard up"), .page),
                SettingRow("page:about", w("About"), w("Version and licences"), .page),
            ]),
            Page(id: "keyboards", title: w("Keyboards"), rows: keyboards.map { keyboard in
                let on = values[keyboardRow(keyboard.name)] == "on"
                return SettingRow(keyboardRow(keyboard.name), w(keyboard.title),
                                  on ? w("In the Globe key's list") : w("Not in the Globe key's list"), .toggle(defaultOn: false))
            }),
            Page(id: "typing", title: w("Typing"), rows: [
                SettingRow("autocapitalization", w("Auto-Capitalization"), w("Shift at the start of a sentence"), .choice),
                SettingRow("autocorrection", w("Auto-Correction"), w("Corrects a misspelt word at the space after it"),
                           .toggle(defaultOn: true)),
                SettingRow("suggestions", w("Predictive"), w("The bar of words above the keys"), .toggle(defaultOn: true)),
                SettingRow("slide-to-type", w("Slide to Type"), w("Slide across the letters to type a word"),
                           .toggle(defaultOn: true)),
                SettingRow("smart-quotes", w("Smart Punctuation"), w("Curly quotes, and -- becomes a dash"),
                           .toggle(defaultOn: true)),
                SettingRow("double-space-period", w("Double-Space Period"), w("Two spaces type a period and a space"),
                           .toggle(defaultOn: true)),
                SettingRow("caps-lock", w("Caps Lock"), w("A double tap on shift locks capitals"), .toggle(defaultOn: true)),
                SettingRow("key-repeat", w("Key Repeat"), w("A held delete key repeats"), .toggle(defaultOn: true)),
                SettingRow("long-press", w("Long-Press Time"), w("How long a key is held for its accents"), .choice),
                SettingRow("page:replacements", w("Text Replacements"), w("Shortcuts typed that become phrases"), .page),
            ]),
            Page(id: "replacements", title: w("Text Replacements"), rows:
                [SettingRow("add-replacement", w("Add a Replacement"), w("Write a phrase and its shortcut"), .page)]
                + replacements.map { SettingRow("replacement:\($0.shortcut)", $0.shortcut, $0.phrase, .action,
                                                confirmation: w("Tap again to remove it")) }),
            Page(id: "look", title: w("Look and Size"), rows: [
                SettingRow("theme", w("Theme"), w("The keys' colours"), .choice),
                SettingRow("label-size", w("Label Size"), w("How large the letters on the keys are"), .choice),
                SettingRow("height", w("Keyboard Height"), w("Docked, as a share of the screen"), .choice),
                SettingRow("floating", w("Floating"), w("A small keyboard you can drag, reserving no space"),
                           .toggle(defaultOn: false)),
            ]),
            Page(id: "sound", title: w("Sound"), rows: [
                SettingRow("sound", w("Input Click"), w("A click at every key"), .toggle(defaultOn: true)),
                SettingRow("volume", w("Click Volume"), w("How loud the click is"), .choice),
            ]),
            Page(id: "accessibility", title: w("Accessibility"), rows: [
                SettingRow("scan", w("Switch Scanning"), w("Keys highlighted in turn, a switch picks"), .choice),
                SettingRow("scan-switch", w("Scanning Switch"), w("The key your switch sends: tap, then press it"), .action),
                SettingRow("scan-interval", w("Scanning Speed"), w("How long each highlight stays"), .choice),
                SettingRow("dwell", w("Dwell"), w("A pointer resting on a key presses it"), .choice),
                SettingRow("slow-keys", w("Slow Keys"), w("A key counts only once held this long"), .choice),
                SettingRow("bounce-keys", w("Bounce Keys"), w("A quick second press of a key types nothing"), .choice),
                SettingRow("sticky-keys", w("Sticky Keys"), w("Ctrl, Alt and Super stay down for the next key"),
                           .toggle(defaultOn: true)),
            ]),
            Page(id: "privacy", title: w("Privacy"), rows: [
                SettingRow("learning", w("Learn From My Typing"), w("Words and taps, never passwords"),
                           .toggle(defaultOn: true)),
                SettingRow("forget", w("Forget Learned Words"), w("Learned in every language, never from passwords"),
                           .action, confirmation: w("Tap again to forget them all")),
                SettingRow("files", w("Files Kept"), w("~/.local/share/keypane, yours alone (0600)"), .info),
            ]),
            Page(id: "showing", title: w("When to Show"), rows: [
                SettingRow("auto-show", w("Show the Keyboard"), w("For which fields"), .choice),
                SettingRow("show-button", w("Show Button"), w("A round button brings a hidden keyboard back"),
                           .toggle(defaultOn: true)),
            ]),
            Page(id: "about", title: w("About"), rows: about.map {
                SettingRow("about:\($0.title)", w($0.title), w($0.detail), .info)
            }),
        ]
    }

    /// The keyboards page's rows for a Globe key's list: those `listed` first in its order (named by
    /// `title` where `offered` does not name them), then the rest of `offered`; and their values.
    public static func keyboardRows(listed: [String], offered: [(name: String, title: String)],
                                    title: (String) -> String? = { _ in nil })
        -> (keyboards: [(name: String, title: String)], values: [String: String]) {
        let titles = Dictionary(offered.map { ($0.name, $0.title) }, uniquingKeysWith: { first, _ in first })
        let keyboards = listed.map { (name: $0, title: titles[$0] ?? title($0) ?? $0) } + offered.filter { !listed.contains($0.name) }
        return (keyboards, Dictionary(listed.map { (keyboardRow($0), "on") }, uniquingKeysWith: { first, _ in first }))
    }

    /// What the scanning switch's row asks for while it waits: the one switch, or for step scanning the
    /// one that moves (none pressed yet), then the one that picks.
    public static func switchPrompt(step: Bool, pressed: Int, words: PanelWords) -> String {
        guard step else { return words("Press your switch within 10 s") }
        return pressed == 0 ? words("Press the switch that moves, within 10 s") : words("Press the switch that picks, within 10 s")
    }

    /// The keyboards other than languages' that the Globe key's list may hold, after the languages', with
    /// their layouts' titles.
    public static let keyboardTypes: [(name: String, title: String)] = [
        ("emoji", "Emoji"), ("desktop", "Desktop (US)"), ("ascii", "English (US, ASCII)"), ("email", "Email address"),
        ("url", "URL"), ("web-search", "Web search"), ("social", "Social"), ("numbers-punctuation", "Numbers and punctuation"),
        ("number-pad", "Number pad"), ("ascii-number-pad", "Number pad (ASCII)"), ("phone-pad", "Phone pad"),
        ("name-phone-pad", "Name and phone number"), ("decimal-pad", "Decimal pad"),
    ]

    /// The keyboards the Globe key's list may hold, among the layouts `available`: the languages', each
    /// named in its own words, then the emoji keyboard (when there are emoji) and the other types.
    public static func offeredKeyboards(available: [String], emoji: Bool) -> [(name: String, title: String)] {
        Language.named.compactMap { language in
            Language.keyboard(for: language.tag, among: available).map { (name: $0, title: language.title) }
        } + keyboardTypes.filter { $0.name == EmojiBoard.name ? emoji : available.contains($0.name) }
    }

    /// The row of a keyboard in the Globe key's list, by its layout's name.
    public static func keyboardRow(_ name: String) -> String { "keyboard:\(name)" }
}
