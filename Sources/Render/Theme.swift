/// A colour, each component from 0 to 1.
public struct Color: Equatable, Sendable {
    public var red, green, blue, alpha: Double

    public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 0xRRGGBB.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }
}

/// The colours of the keyboard, after the iOS system keyboard's light and dark appearance.
public struct Theme: Equatable, Sendable {
    public var name: String
    public var background: Color
    public var characterKey: Color
    public var functionKey: Color
    public var label: Color
    public var secondaryLabel: Color
    public var shadow: Color
    public var accent: Color
    public var accentLabel: Color

    public static let light = Theme(
        name: "light", background: Color(hex: 0xD1D4DA), characterKey: Color(hex: 0xFFFFFF),
        functionKey: Color(hex: 0xABB0BA), label: Color(hex: 0x000000), secondaryLabel: Color(hex: 0x3C3C43),
        shadow: Color(hex: 0x898A8D), accent: Color(hex: 0x007AFF), accentLabel: Color(hex: 0xFFFFFF))

    public static let dark = Theme(
        name: "dark", background: Color(hex: 0x2B2B2D), characterKey: Color(hex: 0x6B6B6E),
        functionKey: Color(hex: 0x47474A), label: Color(hex: 0xFFFFFF), secondaryLabel: Color(hex: 0xD0D0D4),
        shadow: Color(hex: 0x000000, alpha: 0.45), accent: Color(hex: 0x0A84FF), accentLabel: Color(hex: 0xFFFFFF))

    public static let all = [light, dark]

    /// The theme of a given name, "light" or "dark".
    public static func named(_ name: String) -> Theme? { all.first { $0.name == name } }
}
