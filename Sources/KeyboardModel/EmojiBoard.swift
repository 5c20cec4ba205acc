/// The emoji keyboard as a layout: a page of emoji keys per layer, a strip of group tabs, and a search
/// layer with a small letter row. What the user did is part of it: the emoji used recently (the first
/// tab), the skin tone chosen for each emoji, and the search typed so far.
///
/// Pages are layers named after their group (smileys, smileys-2, ...); `recent` and `search` are layers
/// too, so hit testing, popups, scanning and the geometry file treat the emoji keyboard as any other.
public struct EmojiBoard: Sendable {
    /// The layout's name, and the keyboard type's.
    public static let name = "emoji"
    /// How many emoji a page holds: 4 rows of 9 on a phone, 3 of 12 on a tablet.
    public static let pageSize = 36
    static let columns: [WidthClass: Int] = [.compact: 9, .regular: 12]
    /// How many emoji the first tab keeps.
    public static let recentLimit = pageSize

    public let catalog: EmojiCatalog
    /// Emoji typed lately, the latest first.
    public private(set) var recent: [String] = []
    /// The skin tone form chosen for an emoji (by its untoned form).
    public private(set) var tones: [String: String] = [:]
    /// The search typed on the search layer.
    public private(set) var query = ""

    public init(catalog: EmojiCatalog) { self.catalog = catalog }

    // MARK: - What the user did

    /// Notes an emoji typed: it goes first in the recent tab; a toned form becomes its emoji's choice.
    /// Returns whether anything changed.
    @discardableResult
    public mutating func used(_ text: String) -> Bool {
        guard let emoji = catalog.emoji(containing: text) else { return false }
        let before = (recent, tones)
        recent.removeAll { $0 == text || catalog.emoji(containing: $0)?.text == emoji.text }
        recent.insert(text, at: 0)
        if recent.count > Self.recentLimit { recent.removeLast(recent.count - Self.recentLimit) }
        if !emoji.variants.isEmpty {
            if text == emoji.text { tones[emoji.text] = nil } else { tones[emoji.text] = text }
        }
        return before.0 != recent || before.1 != tones
    }

    /// The search with text added (a letter, a space) or its last character taken away.
    public mutating func editQuery(_ edit: EmojiSearchEdit) {
        switch edit {
        case .type(let text): query += text
        case .deleteBackward: if !query.isEmpty { query.removeLast() }
        }
    }

    /// The recent emoji and tone choices as the state file keeps them: `recent` and the emoji on one line,
    /// then a `tone` line for each choice.
    public var memory: String {
        var lines = ["recent" + recent.map { " " + $0 }.joined()]
        for base in tones.keys.sorted() { lines.append("tone \(base) \(tones[base]!)") }
        return lines.joined(separator: "\n")
    }

    /// Whether what a state file kept lists recent emoji: the person uses the emoji keyboard.
    public static func listsRecent(_ memory: String) -> Bool {
        memory.split(separator: "\n").contains { line in
            let words = line.split(separator: " ")
            return words.first == "recent" && words.count > 1
        }
    }

    /// Takes what a state file kept; emoji this catalog does not have, and lines of another form, are
    /// left out.
    public mutating func remember(_ memory: String) {
        for line in memory.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "recent" {
                recent = Array(words.dropFirst().filter { catalog.emoji(containing: $0) != nil }.prefix(Self.recentLimit))
            } else if words.first == "tone", words.count == 3, let emoji = catalog.emoji(containing: words[1]),
                      emoji.text == words[1], emoji.variants.contains(words[2]) {
                tones[words[1]] = words[2]
            }
        }
    }

    // MARK: - The layout

    /// The layers in order: recent, each group's pages, search.
    /// The first is shown first: the recent tab, once there are recent emoji.
    public var layers: [String] {
        let groupPages = catalog.groups.flatMap { group in (0..<pages(group)).map { Self.page($0, of: group.id) } }
        return recent.isEmpty ? groupPages + ["recent", "search"] : ["recent"] + groupPages + ["search"]
    }

    func pages(_ group: EmojiCatalog.Group) -> Int { max(1, (group.emoji.count + Self.pageSize - 1) / Self.pageSize) }

    /// The layer name of a group's page, counted from 0: smileys, smileys-2, ...
    static func page(_ index: Int, of group: String) -> String { index == 0 ? group : "\(group)-\(index + 1)" }

    /// The group a layer belongs to: its tab's layer (smileys for smileys-3).
    public static func group(of layer: String) -> String {
        guard let dash = layer.lastIndex(of: "-"), Int(layer[layer.index(after: dash)...]) != nil else { return layer }
        return String(layer[..<dash])
    }

    /// The whole keyboard.
    public func layout() -> Layout {
        let names = layers
        var layout = Layout(name: Self.name, type: .emoji, title: "Emoji", language: nil, layers: names, rows: [:])
        var pageLayers: [(String, [String])] = [("recent", recent.map(shown))]
        for group in catalog.groups {
            for page in 0..<pages(group) {
                let emoji = group.emoji.dropFirst(page * Self.pageSize).prefix(Self.pageSize)
                pageLayers.append((Self.page(page, of: group.id), emoji.map { tones[$0.text] ?? $0.text }))
            }
        }
        for (index, (layer, emoji)) in pageLayers.enumerated() {
            let previous = pageLayers[(index + pageLayers.count - 1) % pageLayers.count].0
            let next = pageLayers[(index + 1) % pageLayers.count].0
            for widthClass in WidthClass.allCases {
                layout.rows[Layout.LayerKey(layer: layer, widthClass: widthClass)] =
                    grid(emoji, widthClass: widthClass) + [tabs(previous: previous, next: next)]
            }
        }
        setSearchRows(&layout)
        return layout
    }

    /// The layout with the recent tab as it is now.
    public func updatingRecent(_ layout: inout Layout) {
        for widthClass in WidthClass.allCases {
            let key = Layout.LayerKey(layer: "recent", widthClass: widthClass)
            guard let tabs = layout.rows[key]?.last else { continue }
            layout.rows[key] = grid(recent.map(shown), widthClass: widthClass) + [tabs]
        }
    }

    /// The layout with the search layer showing the query and what it finds.
    public func setSearchRows(_ layout: inout Layout) {
        for widthClass in WidthClass.allCases {
            let columns = Self.columns[widthClass]!
            let found = catalog.search(query, limit: columns).map { $0.variants.isEmpty ? $0.text : shown($0.text) }
            let results = found.map { key($0) } + Array(repeating: RowItem.gap(1), count: columns - found.count)
            let letter = { (text: Substring) in RowItem.key(KeySpec(function: .emojiSearch(.type(String(text))))) }
            let rows: [[RowItem]] = [
                results,
                "qwertyuiop".map { letter(Substring(String($0))) },
                [.gap(0.5)] + "asdfghjkl".map { letter(Substring(String($0))) } + [.gap(0.5)],
                [.gap(1.5)] + "zxcvbnm".map { letter(Substring(String($0))) }
                    + [.key(KeySpec(function: .emojiSearch(.deleteBackward), width: 1.5))],
                [.key(KeySpec(function: .languageKeyboard, width: 1.5, label: "ABC")),
                 .key(KeySpec(function: .layer(catalog.groups.first?.id ?? "recent"), width: 1.5,
                              label: catalog.groups.first?.tab ?? "🕘")),
                 .key(KeySpec(function: .emojiSearch(.type(" ")), width: 7,
                              label: query.isEmpty ? "Search Emoji" : "🔍 " + query))],
            ]
            layout.rows[Layout.LayerKey(layer: "search", widthClass: widthClass)] = rows.map(Self.row)
        }
    }

    /// A recent emoji as its key shows it: with the tone chosen since, for one typed untoned.
    private func shown(_ text: String) -> String { tones[text] ?? text }

    private func key(_ text: String) -> RowItem {
        let emoji = catalog.emoji(containing: text)
        let alternates = emoji?.alternates ?? []
        return .key(KeySpec(function: .text(text), alternates: alternates))
    }

    /// A page's emoji in rows, the last filled with space so that keys keep their size.
    private func grid(_ emoji: [String], widthClass: WidthClass) -> [Row] {
        let columns = Self.columns[widthClass]!
        let rows = Self.pageSize / columns
        return (0..<rows).map { row in
            let part = emoji.dropFirst(row * columns).prefix(columns).map(key)
            return Self.row(part + Array(repeating: RowItem.gap(1), count: columns - part.count))
        }
    }

    /// The labels of the keys that turn to the previous and the next page (the other layer keys are tabs).
    public static let pageTurns = (previous: "‹", next: "›")

    /// Whether a key of the emoji keyboard turns the page, rather than being a group's tab.
    public static func turnsPage(_ key: PlacedKey) -> Bool {
        guard case .layer = key.function else { return false }
        return key.label == pageTurns.previous || key.label == pageTurns.next
    }

    /// The strip under each page: back to the letters, the previous page, a tab for each group and for
    /// search, the next page, delete.
    private func tabs(previous: String, next: String) -> Row {
        var items: [RowItem] = [.key(KeySpec(function: .languageKeyboard, width: 1.5, label: "ABC")),
                                .key(KeySpec(function: .layer(previous), label: Self.pageTurns.previous)),
                                .key(KeySpec(function: .layer("recent"), label: "🕘"))]
        items += catalog.groups.map { .key(KeySpec(function: .layer($0.id), label: $0.tab)) }
        items += [.key(KeySpec(function: .layer("search"), label: "🔍")),
                  .key(KeySpec(function: .layer(next), label: Self.pageTurns.next)),
                  .key(KeySpec(function: .keysym("BackSpace"), width: 1.5))]
        return Self.row(items)
    }

    private static func row(_ items: [RowItem]) -> Row {
        Row(items: items, location: SourceLocation(file: EmojiCatalog.standardPath, line: 0))
    }
}

/// A change to the emoji search, from its letter row.
public enum EmojiSearchEdit: Equatable, Hashable, Sendable {
    case type(String)
    case deleteBackward
}
