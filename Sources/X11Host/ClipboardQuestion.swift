internal import CX11
internal import XDisplay

/// Whether the clipboard holds text, asked of its owner: the targets it can give (ICCCM's TARGETS,
/// converted onto the keyboard's window) include a text one. The answer comes with a SelectionNotify
/// event; an owner that never answers leaves the question unanswered, and the next replaces it.
final class ClipboardQuestion {
    private let connection: DisplayConnection
    private let window: UInt
    private var waiting: ((Bool) -> Void)?
    private lazy var clipboard = connection.atom("CLIPBOARD")
    private lazy var targets = connection.atom("TARGETS")
    private lazy var property = connection.atom("KEYPANE_CLIPBOARD_TARGETS")
    private lazy var textTargets: Set<UInt> = Set(["UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain"]
        .map(connection.atom))

    init(connection: DisplayConnection, window: UInt) {
        self.connection = connection
        self.window = window
    }

    func ask(_ answer: @escaping (Bool) -> Void) {
        let display = connection.display
        guard XGetSelectionOwner(display, clipboard) != 0 else { return answer(false) }
        waiting = answer
        XConvertSelection(display, clipboard, targets, property, window, UInt(CurrentTime))
        XFlush(display)
    }

    /// The owner's answer; true when the event was it.
    func handle(_ event: XEvent) -> Bool {
        guard event.type == SelectionNotify, event.xselection.requestor == window,
              event.xselection.selection == clipboard else { return false }
        if let answer = waiting {
            waiting = nil
            // No property: the owner refused the conversion.
            let offered = event.xselection.property == 0 ? []
                : connection.numbers(of: window, property, type: UInt(XA_ATOM), most: 256, delete: true)
            answer(offered.contains(where: textTargets.contains))
        }
        return true
    }
}
