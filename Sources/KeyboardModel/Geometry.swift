/// How a key is coloured.
public enum KeyStyle: Sendable {
    /// Keys that type: letters, digits, punctuation, space.
    case character
    /// Shift, delete, layer keys, globe, Return and other keys that do not type.
    case function
    /// A Return key that completes an action (go, send, ...), drawn in the accent colour.
    case prominent
}

/// A key placed on the keyboard.
public struct PlacedKey: Equatable, Sendable {
    public var rect: Rect
    public var function: KeyFunction
    /// The word or character drawn on the key, or nil when it shows `icon`.
    public var label: String?
    /// The symbol drawn on the key when it has no label.
    public var icon: KeyIcon?
    /// A small second label: phone letters, or the shifted character.
    public var secondary: String?
    /// Characters offered when the key is held.
    public var alternates: [String]
    public var style: KeyStyle
    /// Whether `secondary` goes under the label (a pad's digits: letters, or "+" under 0) rather than above
    /// it (a shifted character). A pad's digit with nothing under it still sits where the others do.
    public var secondaryBelow = false
    /// Drawn without a key's face (the dismiss key in the suggestion bar), as iOS draws its bar's buttons.
    public var flat = false

    /// The key's name in geometry files: its label, or the icon's name.
    public var name: String {
        if case .suggestion(let slot) = function { return "suggestion \(slot + 1)" }
        return label ?? icon?.rawValue ?? (function.isSpace ? "space" : "")
    }
}

/// A keyboard laid out at a size: every key's rectangle, for drawing and hit testing.
public struct KeyboardGeometry: Equatable, Sendable {
    public var layoutName: String
    public var type: KeyboardType
    public var layer: String
    public var layers: [String]
    public var width: Int
    public var height: Int
    public var widthClass: WidthClass
    public var keys: [PlacedKey]
    /// Horizontal and vertical space between keys, in pixels.
    public var gap: (x: Int, y: Int)
    /// Space between the keys and the keyboard's edges, in pixels.
    public var margin: (x: Int, y: Int)
    /// Height of one key row in pixels (the smallest, where rounding differs).
    public var keyHeight: Int

    public static func == (a: Self, b: Self) -> Bool {
        a.layoutName == b.layoutName && a.layer == b.layer && a.width == b.width && a.height == b.height
            && a.keys == b.keys && a.gap == b.gap
    }

    /// The key under a point: the key containing it, or in a gap the nearest key within half its height.
    /// Points outside the keyboard hit nothing.
    public func keyIndex(atX x: Double, y: Double) -> Int? {
        guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { return nil }
        var best: Int?
        var bestDistance = Double.infinity
        for (index, key) in keys.enumerated() {
            let distance = key.rect.squaredDistance(x: x, y: y)
            if distance == 0 { return index }
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        // Between keys, the nearest; in an empty part of the keyboard (a short page of the settings
        // panel, the emoji keyboard's last page), none.
        guard let best, bestDistance * 4 <= Double(keys[best].rect.height * keys[best].rect.height) else { return nil }
        return best
    }
}

/// Why a keyboard cannot be laid out at a size.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    case widthOutOfRange(Int)
    case heightOutOfRange(height: Int, minimum: Int)
    case unknownLayer(String, layers: [String])

    public var description: String {
        switch self {
        case .widthOutOfRange(let width):
            "width \(width) is outside the supported range \(KeyboardLayoutEngine.widths.lowerBound)-\(KeyboardLayoutEngine.widths.upperBound) pixels"
        case .heightOutOfRange(let height, let minimum):
            "height \(height) is outside the supported range: this keyboard needs at least \(minimum) pixels and at most \(KeyboardLayoutEngine.maximumHeight)"
        case .unknownLayer(let layer, let layers):
            "unknown layer '\(layer)': this keyboard has \(layers.joined(separator: ", "))"
        }
    }
}

/// What the field being edited asks of the keyboard, and what the user has enabled.
public struct LayoutOptions: Equatable, Sendable {
    public var returnKey: ReturnKeyType
    /// Whether a Globe key is shown: true when more than one keyboard is enabled.
    public var showsGlobe: Bool
    /// Whether dwell's pause key is shown (before the dismiss key): true when dwell is on.
    public var showsDwellPause: Bool
    /// Whether the suggestion bar is shown above the keys of the keyboards for prose
    /// (`KeyboardType.hasSuggestionBar`).
    public var showsSuggestions: Bool
    /// Whether the bar is shown for edit actions alone, on any keyboard (a terminal's, which has no words).
    public var showsEditBar = false
    /// What the space bar says, in both width classes: the language's name while the Globe key switches
    /// between languages (nil: iOS's "space" on a phone's keyboard, nothing on a tablet's).
    public var spaceLabel: String?
    /// The words on the function keys in the keyboard's language (`LayoutLibrary.options(_:for:among:languageKeyboard:)`);
    /// a key not named says its English word.
    public var labels: [String: String] = [:]

    public init(returnKey: ReturnKeyType = .default, showsGlobe: Bool = true, showsDwellPause: Bool = false,
                showsSuggestions: Bool = false, spaceLabel: String? = nil) {
        self.returnKey = returnKey
        self.showsGlobe = showsGlobe
        self.showsDwellPause = showsDwellPause
        self.showsSuggestions = showsSuggestions
        self.spaceLabel = spaceLabel
    }
}

/// Places the keys of a layout in a rectangle of any supported size.
///
/// Each row is split in proportion to its keys' widths in key units and fills the width; rows share the
/// height equally. Edges are rounded to whole pixels, so keys are crisp, never overlap and never leave
/// the bounds.
public enum KeyboardLayoutEngine {
    /// The widths the keyboard supports, in pixels.
    public static let widths = 320...7680
    /// The tallest keyboard, in pixels.
    public static let maximumHeight = 4320
    /// The shortest key that stays usable, in pixels.
    public static let minimumKeyHeight = 18
    /// The suggestion bar's height, as a share of a row of keys.
    public static let barShare = 0.75

    public static func layout(_ layout: Layout, layer: String? = nil, width: Int, height: Int,
                              options: LayoutOptions = LayoutOptions()) throws(GeometryError) -> KeyboardGeometry {
        guard widths.contains(width) else { throw .widthOutOfRange(width) }
        let layer = layer ?? layout.defaultLayer
        // A web search field's Return key says go unless the field says otherwise, as iOS's does.
        var options = options
        if options.returnKey == .default && layout.type == .webSearch { options.returnKey = .go }
        guard layout.layers.contains(layer) else { throw .unknownLayer(layer, layers: layout.layers) }
        let widthClass = WidthClass(width: width)
        // The suggestion bar: a row of three slots above the keys, `barShare` of a row tall.
        let bar = options.showsSuggestions && layout.type.hasSuggestionBar || options.showsEditBar
        // On a phone, the dismiss key (which iPhone does not have) costs the space bar nothing: it goes to the
        // bar's end, or where there is no bar, into the Globe key's list (the engine adds "Hide keyboard").
        // Dwell keeps it in its row, beside its pause key; a pad keeps it in its column.
        let layerRows = layout.rows(layer: layer, widthClass: widthClass)
        // A pad: digits carrying their phone letters.
        let alignDigits = layerRows.flatMap(\.items).contains {
            guard case .key(let key) = $0, case .text(let text) = key.function, text.first?.isNumber == true,
                  let letters = key.secondary else { return false }
            return letters.allSatisfy(\.isUppercase)
        }
        let phone = widthClass == .compact && !options.showsDwellPause
        let dismissInBar = bar && phone
        let dismissInGlobe = !bar && phone && options.showsGlobe && !alignDigits
        var movedDismiss = false
        let rows = layerRows.map { row in
            var items = options.showsGlobe ? row.items : withoutGlobe(row.items)
            if dismissInGlobe { items = without(.dismiss, items) }
            if dismissInBar {
                let before = items.count
                items = without(.dismiss, items)
                movedDismiss = movedDismiss || items.count != before
            }
            return options.showsDwellPause ? withDwellPause(items) : items
        }

        let rowCount = rows.count
        let barShare = bar ? Self.barShare : 0
        let widestRow = rows.map { $0.reduce(0) { $0 + $1.width } }.max() ?? 1
        let gapX = min(max(Int((Double(width) / widestRow * 0.16).rounded()), 2), 14)
        let gapY = min(max(Int((Double(height) / Double(rowCount) * 0.2).rounded()), 3), 16)
        var padX = max(gapX / 2, 2)
        let padY = max(gapY / 2, 2)
        let pitch = Double(height - 2 * padY + gapY) / (Double(rowCount) + barShare)
        // A pad is never stretched over a wide screen: its keys stay at most twice as wide as tall, and the
        // pad is centred.
        if alignDigits {
            let widestUnit = 2 * (pitch - Double(gapY)) + Double(gapX)
            let inner = Int(widestRow * widestUnit) - gapX
            if width - 2 * padX > inner { padX = (width - inner) / 2 }
        }
        let minimumHeight = Int((Double(rowCount) + barShare) * Double(minimumKeyHeight + gapY)) - gapY + 2 * padY
        guard height >= minimumHeight, height <= maximumHeight else {
            throw .heightOutOfRange(height: height, minimum: minimumHeight)
        }

        var keys: [PlacedKey] = []
        let barHeight = Int((barShare * pitch).rounded())
        if bar {
            // Slots edge to edge: the bar is one strip, divided by thin lines where it is drawn; the dismiss
            // key, moved here, at its right end.
            let dismissWidth = movedDismiss ? min(max(barHeight - gapY, 0) * 3 / 2, (width - 2 * padX) / 5) : 0
            let inner = width - 2 * padX - dismissWidth
            for slot in 0..<3 {
                let left = padX + inner * slot / 3, right = padX + inner * (slot + 1) / 3
                keys.append(PlacedKey(rect: Rect(x: left, y: padY, width: right - left, height: barHeight - gapY),
                                      function: .suggestion(slot), label: nil, icon: nil, secondary: nil, alternates: [],
                                      style: .function))
            }
            if movedDismiss {
                keys.append(PlacedKey(rect: Rect(x: padX + inner, y: padY, width: dismissWidth, height: barHeight - gapY),
                                      function: .dismiss, label: nil, icon: .dismiss, secondary: nil, alternates: [],
                                      style: .function, flat: true))
            }
        }
        for (rowIndex, items) in rows.enumerated() {
            let row = Double(rowIndex) + barShare
            let top = padY + Int((row * pitch).rounded())
            let bottom = padY + Int(((row + 1) * pitch).rounded()) - gapY
            let units = items.reduce(0) { $0 + $1.width }
            let unit = Double(width - 2 * padX + gapX) / units
            var start = 0.0
            for item in items {
                let end = start + item.width
                defer { start = end }
                guard case .key(let spec) = item else { continue }
                let left = padX + Int((start * unit).rounded())
                let right = padX + Int((end * unit).rounded()) - gapX
                let rect = Rect(x: left, y: top, width: right - left, height: bottom - top)
                var placed = place(spec, rect: rect, widthClass: widthClass, options: options, alignDigits: alignDigits)
                // Emoji are drawn on the keyboard's background, as iOS draws them.
                if layout.type == .emoji, case .text = spec.function { placed.flat = true }
                keys.append(placed)
            }
        }
        let keyHeight = keys.filter { !$0.function.isSuggestion }.map(\.rect.height).min() ?? 0
        return KeyboardGeometry(layoutName: layout.name, type: layout.type, layer: layer, layers: layout.layers,
                                width: width, height: height, widthClass: widthClass, keys: keys,
                                gap: (gapX, gapY), margin: (padX, padY), keyHeight: keyHeight)
    }

    /// The row without its Globe key; the space bar takes its width, or else the key beside it.
    static func withoutGlobe(_ items: [RowItem]) -> [RowItem] { without(.globe, items) }

    /// The row without the key of a function; the space bar takes its width, or else the key beside it.
    static func without(_ function: KeyFunction, _ items: [RowItem]) -> [RowItem] {
        let isGlobe = { (item: RowItem) -> Bool in if case .key(let key) = item { key.function == function } else { false } }
        guard let globe = items.firstIndex(where: isGlobe) else { return items }
        var items = items
        let width = items.remove(at: globe).width
        let keyIndices = items.indices.filter { if case .key = items[$0] { true } else { false } }
        let space = keyIndices.first { if case .key(let k) = items[$0] { k.function.isSpace } else { false } }
        let left = keyIndices.last { $0 < globe }
        let right = keyIndices.first { $0 >= globe }
        guard let heir = space ?? left ?? right, case .key(var key) = items[heir] else { return items }
        key.width += width
        items[heir] = .key(key)
        return items
    }

    /// The row with dwell's pause key before its dismiss key, as wide as the dismiss key, taken from the
    /// space bar where it is wide enough (else the row's keys narrow a little).
    static func withDwellPause(_ items: [RowItem]) -> [RowItem] {
        guard let dismiss = items.firstIndex(where: { if case .key(let k) = $0 { k.function == .dismiss } else { false } }),
              case .key(let dismissKey) = items[dismiss] else { return items }
        var items = items
        let width = dismissKey.width
        if let space = items.firstIndex(where: { if case .key(let k) = $0 { k.function.isSpace } else { false } }),
           case .key(var spaceKey) = items[space], spaceKey.width >= width + 3 {
            spaceKey.width -= width
            items[space] = .key(spaceKey)
        }
        items.insert(.key(KeySpec(function: .dwellPause, width: width)), at: dismiss)
        return items
    }

    static func place(_ spec: KeySpec, rect: Rect, widthClass: WidthClass, options: LayoutOptions,
                      alignDigits: Bool = false) -> PlacedKey {
        var label = spec.label
        var icon: KeyIcon?
        var style = KeyStyle.function
        switch spec.function {
        case .text(" "):
            // iOS's words: "space" on a phone's keyboard, nothing on a tablet's.
            style = .character
            if label == nil { label = options.spaceLabel ?? (widthClass == .compact ? options.labels["space"] ?? "space" : nil) }
        case .text(let text):
            style = .character
            label = label ?? text
        case .keysym("Return"), .keysym("KP_Enter"):
            if label == nil { label = options.labels[options.returnKey.labelName] ?? options.returnKey.label ?? "return" }
            if options.returnKey.isProminent { style = .prominent }
        case .keysym("BackSpace"):
            if label == nil { icon = .delete }
        case .keysym(let name):
            label = label ?? keysymLabels[name] ?? name
        case .shift:
            if label == nil { icon = .shift }
        case .capsLock:
            // A tablet's keyboard says it; an arrow beside shift's would read as shift on.
            if label == nil {
                if widthClass == .regular { label = options.labels["caps-lock"] ?? "caps lock" } else { icon = .capsLock }
            }
        case .globe:
            if label == nil { icon = .globe }
        case .dismiss:
            if label == nil { icon = .dismiss }
        case .dwellPause:
            label = label ?? options.labels["pause"] ?? "pause"
        case .undo:
            label = label ?? options.labels["undo"] ?? "undo"
        case .redo:
            label = label ?? options.labels["redo"] ?? "redo"
        case .suggestion, .setting, .closeSettings:
            break
        case .languageKeyboard:
            label = label ?? "ABC"
        case .emojiSearch(.type(let text)):
            style = .character
            label = label ?? text
        case .settingsEntry(.type(let text)):
            style = .character
            label = label ?? text
        case .settingsEntry(.deleteBackward):
            if label == nil { icon = .delete }
        case .settingsEntry(.shift):
            if label == nil { icon = .shift }
        case .settingsEntry(.save):
            style = .prominent
        case .emojiSearch(.deleteBackward):
            if label == nil { icon = .delete }
        case .layer(let target):
            label = label ?? layerLabels[target] ?? target
        }
        var placed = PlacedKey(rect: rect, function: spec.function, label: label, icon: icon,
                               secondary: spec.secondary, alternates: spec.alternates, style: style)
        // On a pad, every digit (and the decimal point) sits where the lettered ones do.
        if alignDigits, case .text(let text) = spec.function, text.count == 1,
           text.first!.isNumber || text == "." || text == "," {
            placed.secondaryBelow = true
        } else if let secondary = spec.secondary, label?.allSatisfy(\.isNumber) == true {
            placed.secondaryBelow = secondary.allSatisfy(\.isUppercase)
        }
        return placed
    }

    /// Labels of keys that send a keysym, where the layout gives none.
    static let keysymLabels: [String: String] = [
        "Tab": "tab", "Escape": "esc", "Delete": "del", "Insert": "ins", "Home": "home", "End": "end",
        "Prior": "pg up", "Next": "pg dn", "Left": "←", "Right": "→", "Up": "↑", "Down": "↓",
        "Control_L": "ctrl", "Control_R": "ctrl", "Alt_L": "alt", "Alt_R": "alt", "Super_L": "super",
        "Super_R": "super", "Menu": "menu", "Print": "prt sc",
    ]

    /// Labels of layer keys, where the layout gives none.
    static let layerLabels: [String: String] = [
        "letters": "ABC", "shifted": "ABC", "numbers": "123", "symbols": "#+=",
    ]
}
