internal import CX11
internal import CXRandR
public import KeyboardModel
public import XDisplay

/// A monitor: a named rectangle of the root window.
public struct Monitor: Equatable, Sendable {
    public var name: String
    public var rect: Rect
    public var isPrimary: Bool
    /// Its height in millimetres, where RandR reports it.
    public var heightMillimetres: Int?

    public init(name: String, rect: Rect, isPrimary: Bool, heightMillimetres: Int? = nil) {
        self.name = name
        self.rect = rect
        self.isPrimary = isPrimary
        self.heightMillimetres = heightMillimetres
    }

    /// Pixels per millimetre, up and down, where the monitor reports a believable size (not the 0 mm of a
    /// projector, nor a density no screen has).
    public var pixelsPerMillimetre: Double? {
        guard let millimetres = heightMillimetres, millimetres > 0 else { return nil }
        let density = Double(rect.height) / Double(millimetres)
        return (1...40).contains(density) ? density : nil
    }
}

extension DisplayConnection {
    /// The monitors RandR reports, or the whole screen as one when it reports none.
    public func monitors() -> [Monitor] {
        var count: Int32 = 0
        var result: [Monitor] = []
        if let list = XRRGetMonitors(display, rootWindow, 1, &count) {
            defer { XRRFreeMonitors(list) }
            for index in 0..<Int(count) {
                let info = list[index]
                var name = "monitor-\(index)"
                if info.name != 0, let atomName = XGetAtomName(display, info.name) {
                    name = String(cString: atomName)
                    XFree(atomName)
                }
                result.append(Monitor(name: name, rect: Rect(x: Int(info.x), y: Int(info.y), width: Int(info.width),
                                                             height: Int(info.height)),
                                      isPrimary: info.primary != 0, heightMillimetres: Int(info.mheight)))
            }
        }
        if result.isEmpty {
            result = [Monitor(name: "screen", rect: Rect(x: 0, y: 0, width: Int(XDisplayWidth(display, defaultScreen)),
                                                       height: Int(XDisplayHeight(display, defaultScreen))),
                              isPrimary: true)]
        }
        return result
    }

    /// The root window's size.
    public var rootSize: (width: Int, height: Int) {
        var root: Window = 0
        var x: Int32 = 0, y: Int32 = 0
        var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        XGetGeometry(display, rootWindow, &root, &x, &y, &width, &height, &border, &depth)
        return (Int(width), Int(height))
    }
}

/// Where the docked keyboard goes, and how tall it is.
public enum DockPlacement {
    /// The monitor to dock on: the named one, else the primary, else the first.
    public static func choose(_ monitors: [Monitor], named name: String? = nil) -> Monitor {
        if let name, let monitor = monitors.first(where: { $0.name == name }) { return monitor }
        return monitors.first(where: \.isPrimary) ?? monitors[0]
    }

    /// The height of a row of keys (key and gap) a docked keyboard keeps to, in pixels: big enough to hit,
    /// small enough to leave the screen to the application.
    public static let rowHeights = 44...120

    /// The smallest key a finger should be given, in millimetres at the screen's real size (Apple's 44 pt).
    public static let minimumKeyMillimetres = 7.0

    /// A height that suits the monitor: 38% of its height in portrait, 30% in landscape, with rows within
    /// `rowHeights`, and never more than half the monitor unless the smallest rows need it. Where the monitor
    /// says its size (`pixelsPerMillimetre`), rows are tall enough for keys of at least 7 mm (the key takes
    /// 80% of its row; the rest is the gap).
    /// With the suggestion bar (`bar`), the keyboard is taller by the bar, so the keys keep their size,
    /// up to 55% of the monitor (more where keys of 7 mm need it).
    public static func height(for monitor: Rect, rows: Int, pixelsPerMillimetre: Double? = nil, bar: Bool = false) -> Int {
        let keys = keysHeight(for: monitor, rows: rows, pixelsPerMillimetre: pixelsPerMillimetre)
        guard bar, rows > 0 else { return keys }
        let withBar = Int((Double(keys) * (Double(rows) + KeyboardLayoutEngine.barShare) / Double(rows)).rounded())
        // Keys of 7 mm keep their size with the bar, even past 55%.
        let physical = pixelsPerMillimetre.map { (minimumKeyMillimetres / 0.8 * $0 * (Double(rows) + KeyboardLayoutEngine.barShare)).rounded(.up) }
        let cap = min(max(monitor.height * 55 / 100, Int(physical ?? 0)), monitor.height)
        return max(keys, min(withBar, cap))
    }

    static func keysHeight(for monitor: Rect, rows: Int, pixelsPerMillimetre: Double?) -> Int {
        let portrait = monitor.height > monitor.width
        let share = Int(Double(monitor.height) * (portrait ? 0.38 : 0.30))
        let physical = pixelsPerMillimetre.map { Int((minimumKeyMillimetres / 0.8 * $0).rounded(.up)) } ?? 0
        let lowestRow = max(rowHeights.lowerBound, physical)
        let lowest = rows * lowestRow, highest = rows * max(rowHeights.upperBound, lowestRow)
        let bounded = min(max(share, lowest), highest)
        return min(bounded, max(monitor.height / 2, min(lowest, monitor.height)))
    }

    /// The keyboard's rectangle at the bottom of a monitor, in root coordinates.
    public static func frame(on monitor: Rect, height: Int) -> Rect {
        let width = min(max(monitor.width, KeyboardLayoutEngine.widths.lowerBound), KeyboardLayoutEngine.widths.upperBound)
        return Rect(x: monitor.x, y: monitor.y + monitor.height - height, width: width, height: height)
    }

    /// _NET_WM_STRUT_PARTIAL for a keyboard docked at the bottom of a monitor, measured from the root
    /// window's edges: left, right, top, bottom, then the start and end of each.
    public static func strut(frame: Rect, rootHeight: Int) -> [Int] {
        let bottom = rootHeight - frame.y
        return [0, 0, 0, bottom, 0, 0, 0, 0, 0, 0, frame.x, frame.x + frame.width - 1]
    }
}

/// Where the floating keyboard goes: a phone-sized keyboard with a handle to drag it by, kept wholly on a
/// monitor, reserving no space.
public enum FloatingPlacement {
    /// The floating keyboard's width, as a phone's (compact) keyboard, unless the monitor is narrower.
    public static let width = 390
    /// The strip along the bottom with the grab bar.
    public static let handleHeight = 22
    /// The gap left below the keyboard where it first appears.
    static let bottomMargin = 24

    /// The window's size for a keyboard of `rows` rows: rows of 50 pixels and the handle.
    public static func size(on monitor: Rect, rows: Int, bar: Bool = false) -> (width: Int, height: Int) {
        let width = max(min(width, monitor.width), KeyboardLayoutEngine.widths.lowerBound)
        let barHeight = bar ? Int(50 * KeyboardLayoutEngine.barShare) : 0
        return (width, min(rows * 50 + barHeight + handleHeight, monitor.height))
    }

    /// The frame at a remembered position, moved the least needed to lie wholly on the monitor holding its
    /// centre (else `fallback`); with no position, centred at the bottom of `fallback`.
    public static func frame(at position: (x: Int, y: Int)?, size: (width: Int, height: Int),
                             monitors: [Monitor], fallback: Monitor) -> Rect {
        guard let position else {
            let m = fallback.rect
            return Rect(x: m.x + (m.width - size.width) / 2,
                        y: m.y + max(m.height - size.height - bottomMargin, 0), width: size.width, height: size.height)
        }
        let centre = (x: position.x + size.width / 2, y: position.y + size.height / 2)
        let monitor = monitors.first { $0.rect.contains(x: Double(centre.x), y: Double(centre.y)) } ?? fallback
        return Rect(x: clamp(position.x, monitor.rect.x, monitor.rect.maxX - size.width),
                    y: clamp(position.y, monitor.rect.y, monitor.rect.maxY - size.height),
                    width: size.width, height: size.height)
    }

    private static func clamp(_ value: Int, _ low: Int, _ high: Int) -> Int { max(low, min(value, max(low, high))) }
}
