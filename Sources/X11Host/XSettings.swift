/// The desktop's XSETTINGS (freedesktop.org's XSETTINGS specification): the settings daemon of GNOME,
/// Xfce, MATE, LXDE or xsettingsd owns the `_XSETTINGS_S<screen>` selection and keeps the settings in the
/// `_XSETTINGS_SETTINGS` property of its window. Keypane reads `Net/EnableEventSounds` from it, the
/// desktop's switch for event sounds such as the input click, and `Net/ThemeName`, whose dark variant the
/// keyboard follows with `--theme desktop`.
public enum XSettings {
    public enum Value: Equatable, Sendable {
        case integer(Int32)
        case string(String)
        case color(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)
    }

    /// The switch for event sounds.
    public static let eventSounds = "Net/EnableEventSounds"
    /// The desktop's GTK theme ("Adwaita-dark", "Yaru-dark", "Arc-Dark").
    public static let themeName = "Net/ThemeName"

    /// Reads the property's bytes; nil when they are not settings (too short, or an unknown type).
    public static func parse(_ bytes: [UInt8]) -> [String: Value]? {
        guard bytes.count >= 12, bytes[0] <= 1 else { return nil }
        let bigEndian = bytes[0] == 1
        var offset = 8
        func card(_ size: Int) -> UInt32? {
            guard offset + size <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in 0..<size {
                let byte = UInt32(bytes[offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            offset += size
            return value
        }
        func padded(_ length: Int) -> Int { (length + 3) & ~3 }
        func text(_ length: Int) -> String? {
            guard length >= 0, offset + padded(length) <= bytes.count else { return nil }
            defer { offset += padded(length) }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
        guard let count = card(4) else { return nil }
        var settings: [String: Value] = [:]
        for _ in 0..<count {
            guard let type = card(1), card(1) != nil, let nameLength = card(2), let name = text(Int(nameLength)),
                  card(4) != nil else { return nil }
            switch type {
            case 0:
                guard let value = card(4) else { return nil }
                settings[name] = .integer(Int32(bitPattern: value))
            case 1:
                guard let length = card(4), let value = text(Int(length)) else { return nil }
                settings[name] = .string(value)
            case 2:
                guard let red = card(2), let green = card(2), let blue = card(2), let alpha = card(2) else { return nil }
                settings[name] = .color(red: UInt16(red), green: UInt16(green), blue: UInt16(blue), alpha: UInt16(alpha))
            default:
                return nil
            }
        }
        return settings
    }

    /// Whether the desktop's theme is a dark one, as its name says ("Adwaita-dark", "Arc-Dark": GTK's dark
    /// variants have the word); nil when the settings name no theme.
    public static func prefersDark(_ settings: [String: Value]) -> Bool? {
        guard case .string(let name) = settings[themeName] else { return nil }
        return name.lowercased().split { !$0.isLetter }.contains("dark")
    }

    /// Whether the settings allow event sounds: yes unless the switch is there and off.
    public static func allowsEventSounds(_ settings: [String: Value]) -> Bool {
        if case .integer(let on) = settings[eventSounds] { return on != 0 }
        return true
    }
}
