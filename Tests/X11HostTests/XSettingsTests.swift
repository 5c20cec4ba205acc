import Testing
import X11Host

/// The XSETTINGS property, encoded here as the specification lays it out, in either byte order.
@Suite struct XSettingsTests {
    enum Setting {
        case integer(String, Int32)
        case string(String, String)
        case color(String, UInt16)
    }

    static func encode(_ settings: [Setting], bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        func card(_ value: UInt32, _ size: Int) {
            let order = bigEndian ? Array((0..<size).reversed()) : Array(0..<size)
            bytes += order.map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
        }
        func text(_ string: String) {
            bytes += Array(string.utf8)
            bytes += [UInt8](repeating: 0, count: (4 - string.utf8.count % 4) % 4)
        }
        bytes += [bigEndian ? 1 : 0, 0, 0, 0]
        card(7, 4)  // serial
        card(UInt32(settings.count), 4)
        for setting in settings {
            let (type, name): (UInt32, String) = switch setting {
            case .integer(let name, _): (0, name)
            case .string(let name, _): (1, name)
            case .color(let name, _): (2, name)
            }
            card(type, 1)
            card(0, 1)
            card(UInt32(name.utf8.count), 2)
            text(name)
            card(3, 4)  // last-change serial
            switch setting {
            case .integer(_, let value): card(UInt32(bitPattern: value), 4)
            case .string(_, let value):
                card(UInt32(value.utf8.count), 4)
                text(value)
            case .color(_, let value): (0..<4).forEach { card(UInt32(value) + UInt32($0), 2) }
            }
        }
        return bytes
    }

    static let desktop: [Setting] = [
        .string("Net/ThemeName", "Adwaita"),
        .integer("Net/EnableEventSounds", 0),
        .color("Gtk/Color", 0x1000),
        .integer("Xft/DPI", -1),
    ]

    @Test(arguments: [false, true]) func settingsReadInEitherByteOrder(bigEndian: Bool) throws {
        let settings = try #require(XSettings.parse(Self.encode(Self.desktop, bigEndian: bigEndian)))
        #expect(settings.count == 4)
        #expect(settings["Net/ThemeName"] == .string("Adwaita"))
        #expect(settings["Net/EnableEventSounds"] == .integer(0))
        #expect(settings["Gtk/Color"] == .color(red: 0x1000, green: 0x1001, blue: 0x1002, alpha: 0x1003))
        #expect(settings["Xft/DPI"] == .integer(-1))
    }

    @Test func eventSoundsAreAllowedUnlessSwitchedOff() throws {
        let off = try #require(XSettings.parse(Self.encode(Self.desktop, bigEndian: false)))
        #expect(!XSettings.allowsEventSounds(off))
        let on = try #require(XSettings.parse(Self.encode([.integer("Net/EnableEventSounds", 1)], bigEndian: false)))
        #expect(XSettings.allowsEventSounds(on))
        // A desktop without the switch, or with a switch of the wrong type, does not silence the click.
        #expect(XSettings.allowsEventSounds([:]))
        #expect(XSettings.allowsEventSounds(["Net/EnableEventSounds": .string("0")]))
    }

    @Test func brokenPropertiesAreRefused() {
        let good = Self.encode(Self.desktop, bigEndian: false)
        #expect(XSettings.parse([]) == nil)
        #expect(XSettings.parse([2] + good.dropFirst()) == nil)  // no such byte order
        for length in [good.count - 1, good.count - 4, 20] {
            #expect(XSettings.parse(Array(good.prefix(length))) == nil, "cut to \(length) bytes")
        }
        var unknownType = Self.encode([.integer("A", 1)], bigEndian: false)
        unknownType[12] = 9
        #expect(XSettings.parse(unknownType) == nil)
    }
}
