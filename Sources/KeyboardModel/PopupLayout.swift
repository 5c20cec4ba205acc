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
            width = max(key.width, key.height * 2 / 3) * options.count
            height = key.height * 11 / 10
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

    /// The cell under an offset along a popup of `count` equal cells.
    public static func cell(at offset: Double, size: Double, count: Int) -> Int {
        min(max(Int(offset / (size / Double(count))), 0), count - 1)
    }

    private static func popupIsList(_ popup: Popup) -> Bool {
        if case .preview = popup { return false }
        return true
    }
}
