import KeyboardModel
import TestSupport
import Testing

/// The settings panel's words: PO files read, the language chosen from the locale, and every shipped
/// language saying every word the panel shows.
@Suite struct PanelWordsTests {
    @Test func aPOFileIsRead() throws {
        let text = """
            # A comment
            msgid ""
            msgstr ""
            "Language: de\\n"

            msgid "Done"
            msgstr "Fertig"

            msgid "Say \\"hi\\""
            msgstr ""
            "Sag "
            "\\"hallo\\""

            msgid "Untranslated"
            msgstr ""
            """
        let words = try PanelWords.parse(text, file: "de.po")
        #expect(words == ["Done": "Fertig", "Say \"hi\"": "Sag \"hallo\""])
        let panel = PanelWords(language: "de", translations: words)
        #expect(panel("Done") == "Fertig" && panel("Untranslated") == "Untranslated")
    }

    @Test func aBrokenPOFileIsNamedWithItsLine() {
        for (text, line) in [("msgid \"a\"\nmsgstr \"b\nmsgid \"c\"", 2), ("msgid \"a\"\nmsgstr \"b\"\nmsgstr \"c\"", 3),
                             ("msgid \"a\"\nnonsense", 2), ("\"before any\"", 1), ("msgid \"a\\q\"", 1)] {
            #expect(throws: PanelWordsError.self) { try PanelWords.parse(text, file: "x.po") }
            do { _ = try PanelWords.parse(text, file: "x.po") } catch let error as PanelWordsError {
                #expect(error.line == line && error.description.hasPrefix("x.po:\(line): "), "\(error)")
            } catch {}
        }
    }

    @Test func theLanguageIsTheLocalesElseTheFirstKeyboards() {
        let available: Set = ["de", "fr", "pt-br"]
        func language(_ environment: [String: String], _ keyboards: [String] = []) -> String {
            PanelWords.language(environment: environment, keyboards: keyboards, available: available)
        }
        #expect(language(["LANG": "de_DE.UTF-8"]) == "de")
        #expect(language(["LANG": "pt_BR.UTF-8"]) == "pt-br")
        #expect(language(["LANGUAGE": "sv:fr", "LANG": "de_DE.UTF-8"]) == "fr")
        #expect(language(["LC_ALL": "fr_CA", "LANG": "de_DE"]) == "fr")
        #expect(language(["LC_MESSAGES": "de_AT@euro"]) == "de")
        // A locale in English, or in a language without words: English, whatever the keyboards.
        #expect(language(["LANG": "en_GB.UTF-8"], ["de"]) == "en")
        #expect(language(["LANG": "ja_JP.UTF-8"], ["de"]) == "en")
        // No language in the locale (a kiosk's C locale): the first keyboard's that has words.
        #expect(language(["LANG": "C.UTF-8"], ["ru", "de"]) == "de")
        #expect(language([:], ["en"]) == "en")
    }

    /// Every text the English panel shows that is a word (not a number, a key name, a language's own
    /// name or the version), in every page, choice and prompt: each shipped language has it.
    @Test func everyShippedLanguageSaysEveryWordThePanelShows() throws {
        let shown = Self.wordsShown()
        #expect(shown.count > 120, "\(shown.count)")
        #expect(bundledPanelWords.count == 14, "\(bundledPanelWords.keys.sorted())")
        for (tag, words) in bundledPanelWords.sorted(by: { $0.key < $1.key }) {
            let missing = shown.filter { words.translations[$0] == nil }.sorted()
            #expect(missing.isEmpty, "\(tag) lacks \(missing)")
            // And the panel in that language shows them: no English left where a translation exists.
            let panel = Self.panel(words)
            #expect(panel.layout().title == words("Keyboard Settings"))
        }
    }

    static func panel(_ words: PanelWords) -> SettingsPanel {
        var panel = SettingsPanel(values: ["keyboard:default": "on", "keyboard:de": "on"], locked: ["floating"],
                                  keyboards: SettingsPanel.offeredKeyboards(available: bundled.available, emoji: true),
                                  about: [("Version", "keypane 1.0"), ("Licence", "Apache 2.0; layouts and sounds made for Keypane"),
                                          ("Word Lists", "FrequencyWords (OpenSubtitles), CC BY-SA 4.0"),
                                          ("Emoji", "Unicode's emoji-test.txt, from Debian's unicode-data")],
                                  replacements: [("omw", "On my way!")], words: words)
        panel.confirming = "forget"
        return panel
    }

    static func wordsShown() -> Set<String> {
        let panel = Self.panel(.english)
        let layout = panel.layout()
        var texts: Set<String> = [layout.title]
        for layer in layout.layers {
            for row in layout.rows(layer: layer, widthClass: .compact) {
                for case .key(let key) in row.items {
                    texts.formUnion([key.label, key.secondary].compactMap { $0 })
                    if case .setting(let row) = key.function {
                        texts.formUnion([row.title, row.detail, row.confirmation].compactMap { $0 })
                        texts.formUnion(panel.choices(of: row.name).map(\.title))
                    }
                }
            }
        }
        var entry = panel
        entry.entry.field = .shortcut
        for case .key(let key) in entry.layout().rows(layer: SettingsPanel.entryLayer, widthClass: .compact)[0].items {
            texts.formUnion([key.label, key.secondary].compactMap { $0 })
            if case .setting(let row) = key.function { texts.insert(row.detail) }
        }
        for step in [false, true] {
            for pressed in [0, 1] { texts.insert(SettingsPanel.switchPrompt(step: step, pressed: pressed, words: .english)) }
        }
        texts.formUnion(["Off", "On", "Tap again", "Set by the administrator", "Tap to write"])
        let ownNames = Set(Language.named.map(\.title))
        return texts.filter { text in
            text.count > 1 && text.contains { $0.isLetter } && !ownNames.contains(text) && !text.hasPrefix("keypane ")
                && !["F12", "F11, F12", "omw", "On my way!", "On my way!|", "|"].contains(text) && !text.hasPrefix("FrequencyWords")
        }
    }
}
