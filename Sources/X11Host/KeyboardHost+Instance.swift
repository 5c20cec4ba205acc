internal import KeyboardModel
internal import CX11
public import XDisplay

/// One keyboard per display: a second start (or a script) finds the running one by the selection it owns
/// and sends it a command.
extension KeyboardHost {
    /// Messages a second `keypane` (or a script) sends to the running one, as ClientMessage data.
    public enum Command: Int, Sendable { case show = 1, hide = 2, toggle = 3 }

    /// The selection a running keyboard owns on a screen, so a second start can find it.
    public static func instanceSelection(screen: Int32) -> String { "_KEYPANE_S\(Int(screen))" }

    /// Asks for every atom start-up names in one round trip instead of one each: call it first thing
    /// after the display is opened.
    public static func internStartUpAtoms(_ connection: DisplayConnection) {
        let screen = connection.defaultScreen
        connection.internAtoms([instanceSelection(screen: screen), "_KEYPANE_COMMAND", "WM_DELETE_WINDOW",
                                "UTF8_STRING", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DOCK",
                                "_NET_WM_STATE", "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_STICKY",
                                "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER", "_NET_WM_DESKTOP",
                                "_NET_WM_STRUT_PARTIAL", "_NET_WM_STRUT", "_NET_ACTIVE_WINDOW",
                                "_NET_WM_STATE_FULLSCREEN", "_XSETTINGS_S\(Int(screen))", "_XSETTINGS_SETTINGS", "MANAGER",
                                "_KEYPANE_SPARE_KEYCODES", "_XKB_RULES_NAMES"])
    }

    /// Asks a running keyboard on this display to do something. True when one was found.
    public static func sendToRunning(_ command: Command, connection: DisplayConnection) -> Bool {
        let display = connection.display
        let owner = XGetSelectionOwner(display, connection.atom(instanceSelection(screen: connection.defaultScreen)))
        guard owner != 0 else { return false }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = owner
        event.xclient.message_type = connection.atom("_KEYPANE_COMMAND")
        event.xclient.format = 32
        event.xclient.data.l.0 = command.rawValue
        XSendEvent(display, owner, 0, 0, &event)
        XSync(display, 0)
        return true
    }
}
