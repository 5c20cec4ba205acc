#if canImport(Glibc)
import Glibc
#endif

/// A colour, each component from 0 to 1.
public struct Color: Hashable, Sendable {
    public var red, green, blue, alpha: Double

    /// Relative luminance, as WCAG 2 defines it (sRGB, alpha ignored).
    public var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2 contrast ratio of two colours, from 1 to 21.
    public func contrast(with other: Color) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

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
    /// The width of a line drawn round each key in the shadow's colour (0: none, the key stands out by its
    /// fill and shadow alone).
    public var outline: Double = 0

    public static let light = Theme(
        name: "light", background: Color(hex: 0xD1D4DA), characterKey: Color(hex: 0xFFFFFF),
        functionKey: Color(hex: 0xABB0BA), label: Color(hex: 0x000000), secondaryLabel: Color(hex: 0x3C3C43),
        shadow: Color(hex: 0x898A8D), accent: Color(hex: 0x007AFF), accentLabel: Color(hex: 0xFFFFFF))

    public static let dark = Theme(
        name: "dark", background: Color(hex: 0x2B2B2D), characterKey: Color(hex: 0x6B6B6E),
        functionKey: Color(hex: 0x47474A), label: Color(hex: 0xFFFFFF), secondaryLabel: Color(hex: 0xF2F2F7),
        shadow: Color(hex: 0x000000, alpha: 0.45), accent: Color(hex: 0x0A84FF), accentLabel: Color(hex: 0xFFFFFF))

    /// High contrast, for people who see the keys poorly: every label at least 7:1 against its key (WCAG
    /// AAA), keys outlined against the background, the accent a deep blue.
    public static let highContrast = Theme(
        name: "high-contrast", background: Color(hex: 0xC8CBD0), characterKey: Color(hex: 0xFFFFFF),
        functionKey: Color(hex: 0xD5D8DD), label: Color(hex: 0x000000), secondaryLabel: Color(hex: 0x1C1C1E),
        shadow: Color(hex: 0x000000), accent: Color(hex: 0x0040DD), accentLabel: Color(hex: 0xFFFFFF), outline: 2)

    /// High contrast on black: white labels, keys outlined in white, the accent yellow.
    public static let highContrastDark = Theme(
        name: "high-contrast-dark", background: Color(hex: 0x000000), characterKey: Color(hex: 0x2C2C2E),
        functionKey: Color(hex: 0x1C1C1E), label: Color(hex: 0xFFFFFF), secondaryLabel: Color(hex: 0xE5E5EA),
        shadow: Color(hex: 0xFFFFFF), accent: Color(hex: 0xFFD60A), accentLabel: Color(hex: 0x000000), outline: 2)

    public static let all = [light, dark, highContrast, highContrastDark]

    /// The names of the themes, for messages.
    public static var allNames: String { all.map(\.name).joined(separator: ", ") }

    /// The theme of a given name: light, dark, high-contrast or high-contrast-dark.
    public static func named(_ name: String) -> Theme? { all.first { $0.name == name } }
}
