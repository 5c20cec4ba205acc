/// Where popups go: above their key, kept inside the keyboard.
///
/// Typing uses it to follow a finger across a popup and Render to draw it, so both agree.
public enum PopupLayout {
    public static func rect(for popup: Popup, in geometry: KeyboardGeometry) -> Rect {
        let key = geometry.keys[popup.key].rect
        let gap = 4
        let (width, height): (Int, Int)
        switch popup {
        case .preview:
            width = max(key.width * 3 / 2, key.height * 4 / 5)
            height = key.height * 5 / 4
        case .alternates(_, let options, _):
            let (columns, rows) = grid(options.count)
            width = max(key.width, key.height * 2 / 3) * columns
            height = key.height * 11 / 10 * rows
        case .keyboards(_, let titles, _):
            width = max(key.width * 4, 220)
            height = max(key.height * 4 / 5, 28) * titles.count
        }
        let w = min(width, geometry.width)
        let h = min(height, geometry.height)
        if case .preview = popup, key.y >= key.height * 3 / 4 {
            // iOS's balloon: the bubble and the key under the finger as one shape, so the area runs from
            // the bubble's top (or the keyboard's) to the key's bottom.
            let x = min(max(key.x + key.width / 2 - w / 2, 0), geometry.width - w)
            let top = max(key.y - height, 0)
            return Rect(x: x, y: top, width: w, height: key.maxY - top)
        }
        let x = min(max(key.x + key.width / 2 - (popupIsList(popup) ? key.width / 2 : w / 2), 0), geometry.width - w)
        let y = min(max(key.y - h - gap, 0), geometry.height - h)
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// Whether a preview is drawn as a balloon joined to its key (where there is room above the key), or
    /// as a box above it.
    public static func isBalloon(_ rect: Rect, key: Rect) -> Bool { rect.maxY == key.maxY && rect.y < key.y }

    /// The columns and rows of a popup of `count` alternates: one row, up to a dozen; more (the 26 forms
    /// of two people's skin tones) in a square grid, row after row.
    public static func grid(_ count: Int) -> (columns: Int, rows: Int) {
        guard count > 12 else { return (max(count, 1), 1) }
        let columns = Int(Double(count).squareRoot())
        return (columns, (count + columns - 1) / columns)
    }

    /// The alternate under a point of a popup (`rect`) of `count` alternates.
    public static func alternate(atX x: Double, y: Double, in rect: Rect, count: Int) -> Int {
        let (columns, rows) = grid(count)
        let column = cell(at: x - Double(rect.x), size: Double(rect.width), count: columns)
        let row = cell(at: y - Double(rect.y), size: Double(rect.height), count: rows)
        return min(row * columns + column, count - 1)
    }

    /// The centre of alternate `index` of a popup (`rect`) of `count` alternates: where a finger picks it.
    public static func centre(ofAlternate index: Int, in rect: Rect, count: Int) -> (x: Double, y: Double) {
        let (columns, rows) = grid(count)
        return (Double(rect.x) + (Double(index % columns) + 0.5) * Double(rect.width) / Double(columns),
                Double(rect.y) + (Double(index / columns) + 0.5) * Double(rect.height) / Double(rows))
    }

    /// The cell under an offset along a popup of `count` equal cells.
    public static func cell(at offset: Double, size: Double, count: Int) -> Int {
        min(max(Int(offset / (size / Double(count))), 0), count - 1)
    }

    private static func popupIsList(_ popup: Popup) -> Bool {
        if case .preview = popup { return false }
        return true
    }
}
