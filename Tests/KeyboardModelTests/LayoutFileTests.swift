import KeyboardModel
import TestSupport
import Testing

@Suite struct BundledLayoutTests {
    @Test(arguments: KeyboardType.withLayoutFiles)
    func everyTypeHasALayout(type: KeyboardType) throws {
        let layout = try #require(bundled.layout(for: type))
        #expect(layout.type == type)
        for layer in layout.layers {
            for widthClass in WidthClass.allCases {
                #expect(!layout.rows(layer: layer, widthClass: widthClass).isEmpty, "\(type) \(layer) \(widthClass)")
            }
        }
    }

    @Test func letterKeyboardsHaveTheUsualLayers() {
        for type in [KeyboardType.default, .ascii, .url, .email, .social, .webSearch] {
            #expect(bundledLayout(type).layers == ["letters", "shifted", "numbers", "symbols"], "\(type)")
        }
        #expect(bundledLayout(.numbersPunctuation).layers.first == "numbers")
        for type in [KeyboardType.numberPad, .phonePad, .decimalPad, .asciiNumberPad] {
            #expect(bundledLayout(type).layers == ["pad"], "\(type)")
        }
    }

    @Test func shiftedLayerIsDerivedInUpperCase() {
        let shifted = bundledLayout(.default).rows(layer: "shifted", widthClass: .compact)
        guard case .key(let e) = shifted[0].items[2] else { Issue.record("no key"); return }
        #expect(e.function == .text("E"))
        #expect(e.alternates.first == "È")
    }

    /// Shifted, a key with a secondary label types it and keeps its look: "1" with "!" small above it.
    @Test func aKeyWithASecondaryLabelTypesItWhenShifted() {
        let shifted = bundledLayout(.desktop).rows(layer: "shifted", widthClass: .compact)
        guard case .key(let one) = shifted[0].items[0] else { Issue.record("no key"); return }
        #expect(one.function == .text("!"))
        #expect(one.label == "1" && one.secondary == "!")
    }

    @Test func inheritedLayoutsChangeOnlyWhatTheySay() {
        let url = bundledLayout(.url).rows(layer: "letters", widthClass: .compact)
        let base = bundledLayout(.default).rows(layer: "letters", widthClass: .compact)
        #expect(Array(url.prefix(3)) == Array(base.prefix(3)))
        #expect(url[3].items.contains(.key(KeySpec(function: .text(".com"), width: 1.75,
                                                   alternates: [".net", ".org", ".edu", ".gov", ".io"]))))
        // The shifted layer follows the child's letters, not the parent's.
        let urlShifted = bundledLayout(.url).rows(layer: "shifted", widthClass: .compact)
        #expect(urlShifted[3] == url[3])
        #expect(urlShifted[0] != url[0])
    }

    /// A keyboard starts with only the layouts it shows parsed: those named, and those they inherit from.
    /// The others are known by name, and a broken one among them stops nothing.
    @Test func onlyTheLayoutsNamedAndTheirParentsAreRead() throws {
        let directory = packageRoot + "/Assets/layouts"
        var texts: [String: (text: String, file: String)] = [:]
        for name in try LayoutLibrary.layoutFiles(in: directory) {
            let path = directory + "/" + name + ".layout"
            texts[name] = (try LayoutLibrary.readFile(path), path)
        }
        texts["broken"] = ("type nonsense\n", "broken.layout")
        let library = try LayoutLibrary(texts: texts, only: ["url", "desktop"])
        #expect(library.layouts.keys.sorted() == ["default", "desktop", "url"])
        #expect(library.available == texts.keys.sorted())
        #expect(library["url"]?.rows(layer: "shifted", widthClass: .compact)
                == bundledLayout(.url).rows(layer: "shifted", widthClass: .compact))
        // Read whole, the broken file is named.
        #expect(throws: LayoutError.self) { try LayoutLibrary(texts: texts) }
    }

    @Test func desktopHasItsKeys() {
        let layout = bundledLayout(.desktop)
        var keysyms: Set<String> = []
        for layer in layout.layers {
            for row in layout.rows(layer: layer, widthClass: .regular) {
                for case .key(let key) in row.items { if case .keysym(let name) = key.function { keysyms.insert(name) } }
            }
        }
        let expected = Set(["Escape", "Tab", "Control_L", "Alt_L", "Super_L", "Left", "Right", "Up", "Down"]
            + (1...12).map { "F\($0)" })
        #expect(expected.isSubset(of: keysyms), "missing \(expected.subtracting(keysyms))")
    }
}

@Suite struct LayoutErrorTests {
    let header = "type default\nlayers letters\n"

    @Test func syntaxErrorNamesFileLineAndColumn() throws {
        let error = try #require(parseError(header + "layer letters\nrow a \"b c\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 4, column: 7))
        #expect(error.description.hasPrefix("test.layout:4:7: unterminated quote: expected a closing"))
    }

    /// A key is a character, however many code points it has: a keycap (# or * and two marks after it) is
    /// a key, not a comment or a width; a skin-toned wave and a flag are one key each; Cyrillic reads as
    /// Latin does. Columns count characters.
    @Test func keysOfManyCodePointsAreOneKeyAndColumnsCountCharacters() throws {
        let text = header + "layer letters\nrow #\u{FE0F}\u{20E3} *\u{FE0F}\u{20E3}*2 👋🏽~👋🏻,👋🏿 🇩🇪 ж~ё\n"
        let library = try parse(text).get()
        let layout = try #require(library.layouts["test"])
        let keys = layout.rows(layer: "letters", widthClass: .compact)[0].items.compactMap { item -> KeySpec? in
            if case .key(let key) = item { return key } else { return nil }
        }
        #expect(keys.map(\.function) == [.text("#\u{FE0F}\u{20E3}"), .text("*\u{FE0F}\u{20E3}"), .text("👋🏽"),
                                          .text("🇩🇪"), .text("ж")])
        #expect(keys[1].width == 2 && keys[2].alternates == ["👋🏻", "👋🏿"] && keys[4].alternates == ["ё"])
        let error = try #require(parseError(header + "layer letters\nrow 👋🏽 🇩🇪 ж*2x a\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 4, column: 12), "\(error)")
        #expect(error.message.hasPrefix("unexpected 'x' in a key"))
        let plain = try #require(parseError(header + "layer letters\nrow ab ж*2x a\n"))
        #expect(plain.location == SourceLocation(file: "test.layout", line: 4, column: 11), "\(plain)")
    }

    /// Quoted keys keep their escapes whatever the characters around them, and a character that does not
    /// belong in a key is named whole, at its column.
    @Test func quotesAndStrayCharactersReadWholeCharacters() throws {
        let text = header + "layer letters\nrow \"ж\\\"\" \"\\é\\\\\" \"a\\nb\"=\"«»\"\n"
        let library = try parse(text).get()
        let items = try #require(library.layouts["test"]).rows(layer: "letters", widthClass: .compact)[0].items
        let keys = items.compactMap { item -> KeySpec? in if case .key(let key) = item { key } else { nil } }
        #expect(keys.map(\.function) == [.text("ж\""), .text("é\\"), .text("a\nb")])
        #expect(keys[2].label == "«»")
        let error = try #require(parseError(header + "layer letters\nrow ж \"ё\"é a\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 4, column: 10), "\(error)")
        #expect(error.message.hasPrefix("unexpected 'é' in a key"), "\(error)")
    }

    @Test func unknownActionIsNamed() throws {
        let error = try #require(parseError(header + "layer letters\nrow a @jump b\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 4, column: 7))
        #expect(error.message.contains("unknown key action '@jump': expected @shift"))
    }

    @Test func missingLayerIsNamed() throws {
        let error = try #require(parseError("type default\nlayers letters numbers\nlayer letters\nrow a\n"))
        #expect(error.location.line == 2)
        #expect(error.message == "missing layer 'numbers' (compact): expected a 'layer numbers' section")
    }

    @Test func unknownTypeIsNamed() throws {
        let error = try #require(parseError("type klingon\nlayers letters\nlayer letters\nrow a\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 1, column: 6))
        #expect(error.message.hasPrefix("unknown keyboard type 'klingon': expected one of default, ascii,"))
    }

    @Test func missingTypeIsNamed() throws {
        let error = try #require(parseError("layers letters\nlayer letters\nrow a\n"))
        #expect(error.message.hasPrefix("missing 'type' line"))
    }

    @Test func otherMistakes() throws {
        let cases: [(String, Int, String)] = [
            ("layer letters\nrow a*x\n", 4, "expected a width in key units after '*'"),
            ("layer letters\nrow a @layer:numbers\n", 4, "key '@layer:numbers' names a layer that is not in the 'layers' line"),
            ("layer letters\nrow a\nlayer numbers\nrow 1\n", 5, "layer 'numbers' is not in the 'layers' line"),
            ("layer letters\nroww a\n", 4, "unknown statement 'roww': expected type, title"),
            ("row a\n", 3, "'row' before any 'layer' line"),
            ("layer letters\nrow a _=x\n", 4, "a gap '_' takes only a width"),
            ("layer letters\nrow a !\n", 4, "expected an X keysym name after '!'"),
            ("layer letters\n", 3, "layer 'letters' has no rows"),
            ("layer letters\nrow a*0\n", 4, "expected a width in key units"),
            ("layer letters\nrow a^\n", 4, "expected a secondary label after '^'"),
            ("layer letters\nsame\n", 4, "'same' has no inherited row 1"),
            ("inherit nothing\nlayer letters\nrow a\n", 3, "unknown layout 'nothing' to inherit"),
        ]
        for (body, line, message) in cases {
            let error = try #require(parseError(header + body), "\(body)")
            #expect(error.location.line == line, "\(body)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func inheritanceCyclesAreRefused() throws {
        let error = try #require(parseError("inherit other\nlayer letters\nrow a\n",
                                            extra: ["other": "inherit test\n"]))
        #expect(error.message.contains("makes a cycle"))
    }

    @Test func aMissingFolderIsNamed() {
        #expect(throws: LayoutError.self) { try LayoutLibrary(directory: "/nonexistent/layouts") }
    }

    @Test func quotedAndBareKeysParse() throws {
        let library = try parse(header + "layer letters\nrow \"#\"*2 \"\\\"\" ,^! !F1=eff @layer:letters=abc _*0.5 e~é,\",\"\n").get()
        let items = try #require(library["test"]).rows(layer: "letters", widthClass: .compact)[0].items
        #expect(items == [
            .key(KeySpec(function: .text("#"), width: 2)),
            .key(KeySpec(function: .text("\""))),
            .key(KeySpec(function: .text(","), secondary: "!")),
            .key(KeySpec(function: .keysym("F1"), label: "eff")),
            .key(KeySpec(function: .layer("letters"), label: "abc")),
            .gap(0.5),
            .key(KeySpec(function: .text("e"), alternates: ["é", ","])),
        ])
    }
}

/// Languages: the tags the settings and layouts use, and which keyboard each brings.
@Suite struct LanguageTests {
    @Test func tagsAreALanguageAndAnOptionalRegion() {
        for tag in ["de", "fr", "en-GB", "pt-BR", "nb", "es-419"] { #expect(Language.isTag(tag), "\(tag)") }
        for text in ["", "d", "deutsch", "DE", "de-de", "de-", "pt_BR", "en-GB-x", "d3"] { #expect(!Language.isTag(text), "\(text)") }
        #expect(Language.normalized("DE") == "de" && Language.normalized("pt_br") == "pt-BR" && Language.normalized("en-gb") == "en-GB")
        #expect(Language.normalized("d3") == nil && Language.normalized("a-b-c") == nil)
    }

    @Test func aLanguageBringsItsKeyboard() {
        let available = ["default", "de", "desktop", "email", "fr", "ru", "url"]
        #expect(Language.keyboard(for: "de", among: available) == "de")
        #expect(Language.keyboard(for: "de-AT", among: available) == "de")
        #expect(Language.keyboard(for: "en-US", among: available) == "default")
        #expect(Language.keyboard(for: "en-GB", among: available) == "default")
        #expect(Language.keyboard(for: "en-GB", among: available + ["en-gb"]) == "en-gb")
        #expect(Language.keyboard(for: "ja", among: available) == nil)
        // A keyboard type's layout is no language's.
        #expect(Language.keyboard(for: "url", among: available) == nil)
    }

    @Test func keymapsAndLocalesSayTheirLanguages() {
        #expect(["us", "de", "ua", "gr", "br", "se", "xx"].map(Language.ofKeymapLayout) == ["en-US", "de", "uk", "el", "pt-BR", "sv", nil])
        #expect(Language.ofLocale("de_DE.UTF-8") == "de" && Language.ofLocale("pt_BR") == "pt-BR")
        #expect(Language.ofLocale("en_GB.UTF-8@euro") == "en-GB" && Language.ofLocale("ru_RU.KOI8-R") == "ru")
        #expect(Language.ofLocale("C.UTF-8") == nil && Language.ofLocale("POSIX") == nil && Language.ofLocale("") == nil)
    }

    /// A layout says its language, a child inherits it, and a tag that is not one is named with its column.
    @Test func aLayoutSaysItsLanguage() throws {
        let base = "type default\ntitle \"Deutsch\"\nlanguage de\nlayers letters\nlayer letters\nrow a\n"
        let library = try parse(base, name: "de", extra: ["child": "inherit de\n", "none": "type default\nlayers letters\nlayer letters\nrow a\n"]).get()
        #expect(library["de"]?.language == "de" && library["child"]?.language == "de" && library["none"]?.language == nil)
        let error = try #require(parseError("type default\nlanguage Deutsch\n"))
        #expect(error.location == SourceLocation(file: "test.layout", line: 2, column: 10))
        #expect(error.message.hasPrefix("bad language tag 'Deutsch'"))
    }

    /// `label` lines name a function key's word; a child keeps its parent's and changes those it names, and a
    /// key that cannot be labelled, or one labelled twice, is named with its line.
    @Test func labelsAreInheritedAndChecked() throws {
        let base = "type default\nlanguage de\nlabel search \"Suchen\"\nlabel return \"Eingabe\"\nlayers letters\nlayer letters\nrow a\n"
        let library = try parse(base, name: "de", extra: ["child": "inherit de\nlabel return \"Zeilenumbruch\"\n"]).get()
        #expect(library["de"]?.labels == ["search": "Suchen", "return": "Eingabe"])
        #expect(library["child"]?.labels == ["search": "Suchen", "return": "Zeilenumbruch"])
        let unknown = try #require(parseError("type default\nlabel shift \"Umschalt\"\n"))
        #expect(unknown.location == SourceLocation(file: "test.layout", line: 2, column: 7))
        #expect(unknown.message.hasPrefix("unknown key 'shift' to label: expected one of return, go, search"), "\(unknown)")
        let twice = try #require(parseError("type default\nlabel go \"Los\"\nlabel go \"Öffnen\"\n"))
        #expect(twice.location.line == 3 && twice.message == "the go key is labelled twice", "\(twice)")
        let empty = try #require(parseError("type default\nlabel go\n"))
        #expect(empty.location.line == 2 && empty.message.contains("expected the label"), "\(empty)")
    }

    /// Every bundled language but English says every Return key's word, and the space bar's, in its own words.
    @Test func theBundledLanguagesLabelTheirKeys() {
        for name in ["de", "fr", "es", "it", "pt-br", "nl", "sv", "da", "nb", "pl", "ru", "uk", "el", "tr"] {
            let labels = bundled[name]?.labels ?? [:]
            for key in ReturnKeyType.allCases.map(\.labelName) + ["space", "undo", "redo", "hide-keyboard"] {
                #expect(labels[key] != nil, "\(name) \(key)")
            }
        }
        #expect(bundled["default"]?.labels == [:] && bundled["ru"]?.labels["search"] == "найти")
    }

    /// A keyboard that inherits the default keyboard's letters can be made on a language's; others, or on
    /// the default keyboard itself, cannot.
    @Test func typeKeyboardsAreRebasedOnALanguage() {
        var library = bundled
        #expect(library.rebased("email", on: "de") == "email@de")
        #expect(library["email@de"]?.type == .email && library["email@de"]?.language == "de")
        #expect(library.rebased("email", on: "default") == nil && library.rebased("number-pad", on: "de") == nil)
        #expect(library.rebased("email", on: "klingon") == nil && library.rebased("klingon", on: "de") == nil)
    }

    /// A library read later (a keyboard type at its first field, another language asked for) brings the
    /// layouts this one lacks, and what making a keyboard on a language's letters needs of them; what
    /// this one made rather than read (a keyboard on a language's letters, the emoji keyboard) stays, and
    /// every file stays a name.
    @Test func aLibraryTakesInTheLayoutsReadLater() throws {
        let files = try LayoutLibrary.layoutPaths(in: packageRoot + "/Assets/layouts")
        var library = try LayoutLibrary(files: files, only: ["de", "email"])
        #expect(library["fr"] == nil && library["url"] == nil && library.available.contains("fr"))
        #expect(library.rebased("email", on: "de") == "email@de")
        library.add(EmojiBoard(catalog: EmojiCatalog(groups: [])).layout())
        library.merge(try LayoutLibrary(files: files, only: ["fr"]))
        library.merge(try LayoutLibrary(files: files, only: ["url"]))
        #expect(library["fr"] != nil && library["email@de"]?.language == "de" && library[EmojiBoard.name] != nil)
        #expect(library.available.contains(EmojiBoard.name) && !library.available.contains("email@de"))
        // A type read later is made on a language read before, and the other way round.
        #expect(library.rebased("url", on: "de") == "url@de" && library["url@de"]?.type == .url)
        #expect(library.rebased("email", on: "fr") == "email@fr" && library["email@fr"]?.language == "fr")
        #expect(library.rebased("url", on: "fr") == "url@fr")
    }

    /// A keyboard made on a language's letters is the keyboard its file would give inheriting that
    /// language, layer for layer (the language's derived layers too), though the library kept only the
    /// language's resolved layout.
    @Test func aRebasedKeyboardIsItsFileInheritingTheLanguage() throws {
        let folder = packageRoot + "/Assets/layouts/"
        for (type, language) in [("email", "de"), ("url", "ru"), ("web-search", "fr"), ("social", "tr")] {
            var library = bundled
            let rebased = library.rebased(type, on: language)
            let name = try #require(rebased)
            var texts: [String: (text: String, file: String)] = [:]
            for file in [type, language, "default"] {
                texts[file] = (try LayoutLibrary.readFile(folder + file + ".layout"), folder + file + ".layout")
            }
            texts[type]!.text = texts[type]!.text.replacingOccurrences(of: "inherit default", with: "inherit \(language)")
            let written = try #require(try LayoutLibrary(texts: texts)[type])
            let made = try #require(library[name])
            #expect(made.layers == written.layers && made.language == written.language && made.labels == written.labels)
            for layer in written.layers {
                for widthClass in WidthClass.allCases {
                    #expect(made.rows(layer: layer, widthClass: widthClass) == written.rows(layer: layer, widthClass: widthClass),
                            "\(name) \(layer) \(widthClass)")
                }
            }
        }
    }

    /// Shifted, Turkish's i is İ and its ı is I, which upper-casing alone would not give.
    @Test func turkishShiftsItsIs() {
        let shifted = bundled["tr"]!.rows(layer: "shifted", widthClass: .compact)
        let texts = shifted.flatMap(\.items).compactMap { item -> String? in
            if case .key(let key) = item, case .text(let text) = key.function { return text } else { return nil }
        }
        #expect(texts.contains("İ") && texts.contains("I") && !texts.contains("i") && !texts.contains("ı"))
    }

    /// The bundled languages' keyboards say their language and their name in it.
    @Test func theBundledLanguagesSayTheirNames() {
        for (name, tag, title) in [("default", "en-US", "English (US)"), ("en-gb", "en-GB", "English (UK)"), ("de", "de", "Deutsch"),
                                   ("fr", "fr", "Français"), ("es", "es", "Español"), ("it", "it", "Italiano"),
                                   ("pt-br", "pt-BR", "Português (Brasil)"), ("nl", "nl", "Nederlands"), ("sv", "sv", "Svenska"),
                                   ("da", "da", "Dansk"), ("nb", "nb", "Norsk bokmål"), ("pl", "pl", "Polski"), ("ru", "ru", "Русский"),
                                   ("uk", "uk", "Українська"), ("el", "el", "Ελληνικά"), ("tr", "tr", "Türkçe")] {
            #expect(bundled[name]?.language == tag && bundled[name]?.title == title, "\(name)")
        }
    }
}
