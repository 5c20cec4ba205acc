internal import KeyboardModel
internal import CX11
internal import XDisplay

/// The desktop's settings that the keyboard follows, from the XSETTINGS daemon of its screen (GNOME's,
/// Xfce's, MATE's, xsettingsd): whether event sounds, the input click among them, are allowed, and whether
/// the desktop's theme is dark.
final class DesktopSettings {
    let connection: DisplayConnection
    private var display: OpaquePointer { connection.display }
    /// The XSETTINGS selection of this screen, and the property its owner keeps the settings in.
    private let selection: UInt
    private let property: UInt
    private let manager: UInt
    /// The settings daemon's window, or 0 when there is none.
    private var owner: UInt = 0
    /// Whether the settings are followed at all (only when something depends on them).
    private(set) var watching = false
    /// Whether the desktop allows event sounds (Net/EnableEventSounds).
    private(set) var eventSoundsAllowed = true
    /// Whether the desktop's theme is dark (Net/ThemeName); false when it names none.
    private(set) var themeIsDark = false
    /// Told when the settings were read again (the theme followed).
    var changed: (() -> Void)?

    init(connection: DisplayConnection) {
        self.connection = connection
        selection = connection.atom("_XSETTINGS_S\(Int(connection.defaultScreen))")
        property = connection.atom("_XSETTINGS_SETTINGS")
        manager = connection.atom("MANAGER")
    }

    /// Finds the settings daemon, follows its changes, and reads its settings.
    func watch() {
        watching = true
        owner = XGetSelectionOwner(display, selection)
        if owner != 0 { XSelectInput(display, owner, PropertyChangeMask | StructureNotifyMask) }
        read()
    }

    /// Takes the events that concern the settings: a daemon that starts, changes its settings or goes.
    /// True when the event was one of them.
    func handle(_ event: XEvent) -> Bool {
        switch event.type {
        case ClientMessage where event.xclient.window == connection.rootWindow && event.xclient.message_type == manager:
            // A settings daemon (re)started.
            if UInt(event.xclient.data.l.1) == selection && watching { watch() }
            return true
        case PropertyNotify where owner != 0 && event.xproperty.window == owner && event.xproperty.atom == property:
            read()
            return true
        case DestroyNotify where owner != 0 && event.xdestroywindow.window == owner:
            owner = 0
            read()
            return true
        default:
            return false
        }
    }

    private func read() {
        var allowed = true
        var dark = false
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        if owner != 0,
           XGetWindowProperty(display, owner, property, 0, 1 << 16, 0, property, &type, &format,
                              &count, &after, &data) == Success, let data {
            defer { XFree(data) }
            if format == 8, let settings = XSettings.parse(Array(UnsafeBufferPointer(start: data, count: Int(count)))) {
                allowed = XSettings.allowsEventSounds(settings)
                dark = XSettings.prefersDark(settings) ?? false
            }
        }
        eventSoundsAllowed = allowed
        themeIsDark = dark
        changed?()
    }
}
