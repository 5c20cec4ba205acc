import Foundation
import KeyboardModel
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct EmojiCatalogTests {
    @Test func groupsFollowIOSAndTonesGoToTheirEmoji() throws {
        let catalog = try fixtureCatalog()
        #expect(catalog.groups.map(\.id) == ["smileys", "symbols", "flags"])
        #expect(catalog.groups[0].emoji.map(\.text) == ["😀", "☺️", "👋", "☝️", "🧑‍🤝‍🧑", "👨‍👩‍👧"])
        let wave = try #require(catalog.emoji(containing: "👋🏽"))
        #expect(wave.text == "👋" && wave.tones == ["👋🏻", "👋🏽"] && wave.name == "waving hand")
        // The toned form has no variation selector, the emoji has.
        #expect(catalog.emoji(containing: "☝🏿")?.text == "☝️")
        // One tone for both people: an alternate; two different tones only in a whole grid of 25, which
        // this sample does not have (`everyEmojiOfUnicodesListIsOffered` reads one).
        #expect(catalog.emoji(containing: "🧑‍🤝‍🧑")?.tones == ["🧑🏻‍🤝‍🧑🏻"])
        #expect(catalog.emoji(containing: "🧑🏻‍🤝‍🧑🏼") == nil)
        #expect(catalog.emoji(containing: "☺") == nil, "unqualified forms are not offered")
    }

    @Test func searchFindsNamesByTheirWordsBeginnings() throws {
        let catalog = try fixtureCatalog()
        #expect(catalog.search("wav", limit: 9).map(\.text) == ["👋"])
        #expect(catalog.search("flag g", limit: 9).map(\.text) == ["🇩🇪", "🇬🇷"])
        #expect(catalog.search("FLAG GERM", limit: 9).map(\.text) == ["🇩🇪"])
        #expect(catalog.search("smiling", limit: 9).map(\.text) == ["☺️"])
        #expect(catalog.search("face", limit: 1).count == 1)
        #expect(catalog.search("  ", limit: 9).isEmpty)
        #expect(catalog.search("zebra", limit: 9).isEmpty)
    }

    @Test func aBrokenLineIsNamedWithItsNumber() throws {
        let text = "# group: Flags\n1F1E9 ZZ ; fully-qualified # 🇩🇪 E0.6 flag: Germany\n"
        #expect(throws: LayoutError(SourceLocation(file: "e.txt", line: 2), "'ZZ' is not a code point in hexadecimal")) {
            try EmojiCatalog(text: text, file: "e.txt")
        }
        #expect(throws: LayoutError.self) { try EmojiCatalog(text: "# group: Flags\n1F1E9 1F1EA fully-qualified\n", file: "e.txt") }
        for (points, wrong) in [("1F1E9 110000", "110000"), ("1F1E9 1F1EA0000A", "1F1EA0000A"), ("D800", "D800")] {
            let line = "# group: Flags\n\(points) ; fully-qualified # 🇩🇪 E0.6 flag: Germany\n"
            #expect(throws: LayoutError(SourceLocation(file: "e.txt", line: 2), "'\(wrong)' is not a code point in hexadecimal")) {
                try EmojiCatalog(text: line, file: "e.txt")
            }
        }
        // After '#': the emoji, its version and its name, all three.
        for comment in ["🇩🇪 E0.6", "🇩🇪 0.6 flag: Germany", ""] {
            let line = "# group: Flags\n1F1E9 1F1EA ; fully-qualified # \(comment)\n"
            #expect(throws: LayoutError(SourceLocation(file: "e.txt", line: 2),
                                        "expected code points and, after '#', the emoji, its version and its name")) {
                try EmojiCatalog(text: line, file: "e.txt")
            }
        }
        // Lines of other statuses, blank lines and comments are passed over.
        let other = "# group: Flags\n\n   \n1F1E9 1F1EA ; unqualified # 🇩🇪 E0.6 flag: Germany\n# a comment\n"
        let passedOver = try EmojiCatalog(text: other, file: "e.txt")
        #expect(passedOver.groups.isEmpty)
    }

    /// A file that is not UTF-8 text is named as such, for the emoji list as for a layout file.
    @Test func aFileThatIsNotTextIsNamed() throws {
        let path = NSTemporaryDirectory() + "keypane-not-text-\(getpid()).txt"
        FileManager.default.createFile(atPath: path, contents: Data([0x31, 0x46, 0xFF, 0xFE, 0x0A]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = LayoutError(SourceLocation(file: path, line: 0, column: 0), "the file is not UTF-8 text")
        #expect(throws: error) { try EmojiCatalog(contentsOf: path) }
        #expect(throws: error) { try LayoutLibrary.readFile(path) }
        #expect(try LayoutLibrary.readBytes(path) == [0x31, 0x46, 0xFF, 0xFE, 0x0A])
    }

    /// Debian's list: every fully-qualified emoji with at most one skin tone is a key or a key's alternate.
    @Test func everyEmojiOfUnicodesListIsOffered() throws {
        let path = EmojiCatalog.standardPath
        guard access(path, R_OK) == 0 else { Issue.record("\(path) is missing: install unicode-data"); return }
        let text = try LayoutLibrary.readFile(path)
        let catalog = try EmojiCatalog(text: text, file: path)
        var offered = 0, mixed = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("; fully-qualified") {
            let points = line.prefix { $0 != ";" }.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            var emoji = ""
            emoji.unicodeScalars.append(contentsOf: points.compactMap(Unicode.Scalar.init))
            if Set(points.filter { (0x1F3FB...0x1F3FF).contains($0) }).count > 1 { mixed += 1 }
            #expect(catalog.emoji(containing: emoji) != nil, "\(emoji) (\(line.split(separator: "#").last ?? ""))")
            offered += 1
        }
        #expect(offered > 3_000 && mixed > 200)
        // Two hands of different tones are the handshake's, in its grid: the left hand's tone by row, the
        // right one's by column; the same tones are its five tones; held, the handshake itself comes last.
        let handshake = try #require(catalog.emoji(containing: "🫱🏻‍🫲🏿"))
        #expect(handshake.text == "🤝" && handshake.pairs.count == 25)
        #expect(handshake.pairs[4] == "🫱🏻‍🫲🏿" && handshake.pairs[20] == "🫱🏿‍🫲🏻" && handshake.pairs[12] == "🤝🏽")
        #expect(handshake.alternates == handshake.pairs + ["🤝"])
        #expect(catalog.emoji(containing: "👩🏻‍❤️‍💋‍👨🏿")?.text == "👩‍❤️‍💋‍👨")
        #expect(catalog.emoji(containing: "🧑🏻‍❤️‍💋‍🧑🏿")?.text == "💏")
        #expect(catalog.groups.flatMap(\.emoji).filter { !$0.pairs.isEmpty }.count * 20 == mixed)
        #expect(catalog.groups.map(\.id) == ["smileys", "animals", "food", "travel", "activity", "objects", "symbols", "flags"])
    }

    /// The first page read alone has every group's tab and the first page's emoji: its first page is laid
    /// out key for key as the whole list's is, at both widths, so that keys drawn from it are the same
    /// images.
    @Test func theFirstPageAloneLaysOutAsTheWholeList() throws {
        let path = EmojiCatalog.standardPath
        guard access(path, R_OK) == 0 else { Issue.record("\(path) is missing: install unicode-data"); return }
        let whole = try EmojiCatalog(contentsOf: path)
        let first = try EmojiCatalog.firstPage(contentsOf: path, count: EmojiBoard.pageSize)
        #expect(first.groups.map(\.id) == whole.groups.map(\.id) && first.groups.map(\.tab) == whole.groups.map(\.tab))
        #expect(first.groups[0].emoji.map(\.text) == whole.groups[0].emoji.prefix(EmojiBoard.pageSize).map(\.text))
        #expect(first.groups.dropFirst().allSatisfy { $0.emoji.isEmpty })
        let wholeLayout = EmojiBoard(catalog: whole).layout(), firstLayout = EmojiBoard(catalog: first).layout()
        #expect(wholeLayout.layers.first == firstLayout.layers.first)
        for (width, height) in [(1280, 320), (600, 300)] {
            let a = try KeyboardLayoutEngine.layout(wholeLayout, layer: nil, width: width, height: height)
            let b = try KeyboardLayoutEngine.layout(firstLayout, layer: nil, width: width, height: height)
            #expect(a.keys.map(\.rect) == b.keys.map(\.rect) && a.keys.map(\.label) == b.keys.map(\.label), "\(width)x\(height)")
            // Only where the next page key leads differs: the second page, or the next group.
            let unturned = { (geometry: KeyboardGeometry) in geometry.keys.filter { !EmojiBoard.turnsPage($0) }.map(\.function) }
            #expect(unturned(a) == unturned(b), "\(width)x\(height)")
        }
    }
}

@Suite struct EmojiBoardTests {
    @Test func pagesHoldEveryEmojiOnceWithTabsAndPaging() throws {
        let board = EmojiBoard(catalog: try fixtureCatalog())
        let layout = board.layout()
        #expect(layout.type == .emoji && layout.title == "Emoji")
        #expect(layout.layers == ["smileys", "symbols", "flags", "recent", "search"], "no recent emoji: smileys first")
        for widthClass in WidthClass.allCases {
            let rows = layout.rows(layer: "smileys", widthClass: widthClass)
            let typed = rows.flatMap(\.items).compactMap { item -> String? in
                guard case .key(let key) = item, case .text(let text) = key.function else { return nil }
                return text
            }
            #expect(typed == ["😀", "☺️", "👋", "☝️", "🧑‍🤝‍🧑", "👨‍👩‍👧"])
            // Every grid row as wide as the others.
            #expect(Set(rows.dropLast().map { $0.items.reduce(0) { $0 + $1.width } }).count == 1)
            let strip = rows.last!.items.compactMap { item -> KeyFunction? in
                if case .key(let key) = item { key.function } else { nil }
            }
            #expect(strip.first == .languageKeyboard && strip.last == .keysym("BackSpace"))
            #expect(strip.contains(.layer("recent")) && strip.contains(.layer("flags")) && strip.contains(.layer("search")))
            let wave = rows.flatMap(\.items).compactMap { item -> KeySpec? in
                if case .key(let key) = item, key.function == .text("👋") { key } else { nil }
            }.first
            #expect(wave?.alternates == ["👋", "👋🏻", "👋🏽"])
        }
        // The page keys go round every page.
        var layer = "smileys", visited: [String] = []
        repeat {
            visited.append(layer)
            let strip = layout.rows(layer: layer, widthClass: .compact).last!.items
            guard case .key(let next) = strip[strip.count - 2], case .layer(let target) = next.function else {
                Issue.record("no next page key on \(layer)")
                return
            }
            layer = target
        } while layer != "smileys" && visited.count < 10
        #expect(Set(visited) == ["recent", "smileys", "symbols", "flags"])
    }

    @Test func aLongGroupTakesSeveralPages() throws {
        let many = (0..<80).map { String(format: "%X ; fully-qualified # %@ E1.0 thing %d", 0x1F300 + $0, String(UnicodeScalar(0x1F300 + $0)!), $0) }
        let catalog = try EmojiCatalog(text: "# group: Objects\n" + many.joined(separator: "\n"), file: "t")
        let layout = EmojiBoard(catalog: catalog).layout()
        #expect(layout.layers == ["objects", "objects-2", "objects-3", "recent", "search"])
        #expect(EmojiBoard.group(of: "objects-3") == "objects" && EmojiBoard.group(of: "objects") == "objects")
    }

    @Test func usedEmojiComeFirstAndTonesAreChoices() throws {
        var board = EmojiBoard(catalog: try fixtureCatalog())
        let first = board.used("😀"), second = board.used("🇩🇪")
        #expect(first && second)
        #expect(board.recent == ["🇩🇪", "😀"])
        let toned = board.used("👋🏽")
        #expect(toned)
        #expect(board.recent == ["👋🏽", "🇩🇪", "😀"] && board.tones == ["👋": "👋🏽"])
        // The emoji again with another tone: one place in the recent tab.
        let retoned = board.used("👋🏻")
        #expect(retoned)
        #expect(board.recent == ["👋🏻", "🇩🇪", "😀"] && board.tones == ["👋": "👋🏻"])
        let again = board.used("👋🏻"), notEmoji = board.used("x")
        #expect(!again, "nothing changed")
        #expect(!notEmoji, "not an emoji")
        let layout = board.layout()
        #expect(layout.layers.first == "recent")
        let keys = layout.rows(layer: "smileys", widthClass: .compact).flatMap(\.items).compactMap { item -> String? in
            if case .key(let key) = item, case .text(let text) = key.function { text } else { nil }
        }
        #expect(keys.contains("👋🏻") && !keys.contains("👋"), "the key shows the tone chosen")
        // Back to no tone.
        let untoned = board.used("👋")
        #expect(untoned)
        #expect(board.tones.isEmpty)
    }

    /// A person uses emoji when the memory lists recent ones; an empty list or a tone alone is not that.
    @Test func theMemorySaysWhetherEmojiAreUsed() {
        #expect(EmojiBoard.listsRecent("recent 👋🏽\ntone 👋 👋🏽\n"))
        #expect(!EmojiBoard.listsRecent("recent\ntone 👋 👋🏽\n"))
        #expect(!EmojiBoard.listsRecent(""))
    }

    @Test func theMemoryReadsBackAndIgnoresWhatItDoesNotKnow() throws {
        var board = EmojiBoard(catalog: try fixtureCatalog())
        board.used("😀")
        board.used("👋🏽")
        var again = EmojiBoard(catalog: try fixtureCatalog())
        again.remember(board.memory)
        #expect(again.recent == board.recent && again.tones == board.tones)
        var odd = EmojiBoard(catalog: try fixtureCatalog())
        odd.remember("recent x 😀 ☺\ntone 👋 😀\ntone 😀\ngarbage\u{0}\ntone ☝️ ☝🏿")
        #expect(odd.recent == ["😀"] && odd.tones == ["☝️": "☝🏿"])
    }

    @Test func theSearchLayerShowsWhatTheQueryFinds() throws {
        var board = EmojiBoard(catalog: try fixtureCatalog())
        for letter in ["f", "l", "a", "g", " ", "g", "x"] { board.editQuery(.type(letter)) }
        board.editQuery(.deleteBackward)
        #expect(board.query == "flag g")
        var layout = board.layout()
        board.setSearchRows(&layout)
        let rows = layout.rows(layer: "search", widthClass: .compact)
        let results = rows[0].items.compactMap { item -> String? in
            if case .key(let key) = item, case .text(let text) = key.function { text } else { nil }
        }
        #expect(results == ["🇩🇪", "🇬🇷"])
        #expect(rows[0].items.count == 9, "the rest of the row is space")
        let labels = rows.last!.items.compactMap { item -> String? in if case .key(let key) = item { key.label } else { nil } }
        #expect(labels.contains("🔍 flag g"))
        #expect(rows[1].items.count == 10)
    }
}
