internal import CX11
internal import CXKBCommon
internal import CXTest
public import EventLoop
public import Typing
public import XDisplay

#if canImport(Glibc)
import Glibc
#endif

/// Types into the focused window with XTest: the character on the key, whatever keymap is active.
///
/// For each character it finds a keycode and level that produce it in the active group of the keymap and
/// presses the modifiers that level needs around the key. A character no key produces is put on a spare
/// keycode (one with no symbols) from a ring, with both of its cases, and the spare keycodes are emptied
/// again by `restore()`. Every key goes down and up in one burst: none stays down between two actions.
///
/// Characters go out in order from a queue. When a spare keycode must be mapped anew before its last
/// press was read, the queue waits, as an event-loop source, for the reader's answer or a deadline: the
/// loop goes on meanwhile, so a slow or hung application never holds up the keyboard.
public final class Injector: EventSource {
    private let connection: DisplayConnection
    private var display: OpaquePointer { connection.display }

    /// What the active keymap types, read when it changed (`keymapIsStale`).
    private var keymap = Keymap()
    private var keymapIsStale = true
    private var byKeysym: [UInt: Stroke] { keymap.byKeysym }
    private var byCharacter: [UInt32: Stroke] { keymap.byCharacter }
    /// Keycodes with no symbols, lent to characters the keymap lacks.
    public var spareKeycodes: [UInt8] { keymap.spareKeycodes }

    /// What each spare keycode holds now: the keysyms mapped to it.
    private var spareContents: [UInt8: [UInt]] = [:]
    /// When each spare keycode was last pressed (monotonic seconds).
    private var spareLastUse: [UInt8: Double] = [:]
    /// The window that had the focus when each spare keycode was last pressed.
    private var spareTypedInto: [UInt8: UInt] = [:]
    /// Spare keycodes pressed by the action being performed, for `spareTypedInto`.
    private var sparesPressed: [UInt8] = []
    /// The last window whose client said it had read its keys, and when it said so.
    private var lastReadBy: (window: UInt, time: Double)?
    private lazy var receipt = ReadReceipt(connection: connection)

    /// One thing to type: a character, or a keysym with modifiers held around it.
    private enum Step {
        case character(Unicode.Scalar)
        case keysym(UInt, holding: [String])
    }
    /// What is still to type, in order.
    private var queue: [Step] = []
    /// What the queue waits for before it maps `keycode` anew: the answer to ping `stamp` (nil: the
    /// client cannot be asked), or `deadline`, whichever comes first.
    private var waiting: (keycode: UInt8, window: UInt, stamp: Int?, deadline: Double)?

    /// Whether keystrokes wait for a client to read earlier ones.
    public var isWaiting: Bool { waiting != nil }

    /// A spare keycode is mapped anew only once the client that got its last press has read it (a client
    /// that lags reads the keymap as it is when it reads the press, and would type the new character):
    /// its answer to a ping says so. A client that speaks no ping (xterm) is given this long instead; a
    /// loaded machine's xterm was seen lagging past 0.1 s.
    public static let spareReuseDelay = 0.5
    /// How long a client that speaks the ping may take to answer before the keycode is mapped anyway (it
    /// is stopped or hung: the keyboard must go on).
    public static let spareReadTimeout = 2.0

    /// Where the spare keycodes in use are written down, for a start after a kill to empty them (made on
    /// first use, after the first frame: its atom costs a round trip).
    private lazy var record = SpareRecord(connection: connection)

    public init(connection: DisplayConnection) throws(XError) {
        self.connection = connection
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XTestQueryExtension(connection.display, &event, &error, &major, &minor) != 0 else {
            throw .missingExtension("XTEST")
        }
        var opcode: Int32 = 0
        major = Int32(XkbMajorVersion)
        minor = Int32(XkbMinorVersion)
        guard XkbQueryExtension(connection.display, &opcode, &event, &error, &major, &minor) != 0 else {
            throw .missingExtension("XKEYBOARD")
        }
        // Our fake events must not be held up by a grab of our own.
        XTestGrabControl(connection.display, 1)
        // The keymap is read by prepare(), after the first frame, or by the first keystroke.
    }

    // MARK: - Actions

    /// Types text or sends a keysym, after whatever is still queued; other actions are not the injector's.
    public func perform(_ action: KeyAction) {
        switch action {
        case .text(let text):
            queue += text.unicodeScalars.map { .character($0) }
        case .keysym(let name, let modifiers):
            let keysym = keysymForName(name)
            guard keysym != 0 else { return }
            queue.append(.keysym(keysym, holding: modifiers))
        default:
            return
        }
        if waiting == nil { drain() }
    }

    /// Types from the queue until it is empty or must wait.
    private func drain() {
        refreshIfNeeded()
        var typed = false
        while let step = queue.first, type(step) {
            queue.removeFirst()
            typed = true
        }
        guard typed else { return }
        // The keys go out now, in a write of their own, ahead of the redraws that follow the tap.
        XFlush(display)
        guard !sparesPressed.isEmpty else { return }
        // Who got the keys of spare keycodes: the focus (a round trip, so only then).
        var focus: UInt = 0, revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        for keycode in sparesPressed { spareTypedInto[keycode] = focus }
        sparesPressed = []
    }

    /// Types one step; false when it must wait for a spare keycode (nothing was pressed then).
    private func type(_ step: Step) -> Bool {
        switch step {
        case .character(let scalar):
            return type(scalar)
        case .keysym(let keysym, let modifiers):
            let held = modifiers.compactMap { byKeysym[keysymForName($0)]?.keycode }
            guard let stroke = byKeysym[keysym] ?? spare(for: keysym, upper: keysym) else { return false }
            press(stroke, holding: held)
            return true
        }
    }

    // MARK: - Waiting for a reader

    public func prepare(now: Double) -> Interest { .at(waiting?.deadline) }

    /// The deadline came: the client did not answer, or cannot be asked and has had its time.
    public func turn(_ ready: [Readiness], now: Double) {
        guard let waiting, waiting.deadline <= now else { return }
        stopWaiting()
        drain()
    }

    /// Takes the answer to the ping the queue waits for, a client message sent to `window` of `type` with
    /// `data`; false for any other message.
    public func takeAnswer(window: UInt, type: UInt, data: (Int, Int, Int, Int, Int)) -> Bool {
        guard let waiting, let stamp = waiting.stamp,
              receipt.isAnswer(window: window, type: type, data: data, to: stamp) else { return false }
        lastReadBy = (waiting.window, EventLoop.monotonicNow())
        stopWaiting()
        drain()
        return true
    }

    private func stopWaiting() {
        if waiting?.stamp != nil { receipt.stopListening() }
        waiting = nil
    }

    /// A keysym by X name ("Return", "F1") or, for one character, the keysym of that character.
    private func keysymForName(_ name: String) -> UInt {
        let scalars = Array(name.unicodeScalars)
        if scalars.count == 1 { return UInt(xkb_utf32_to_keysym(scalars[0].value)) }
        return XStringToKeysym(name)
    }

    private func type(_ scalar: Unicode.Scalar) -> Bool {
        let stroke: Stroke?
        switch scalar {
        case "\n", "\r": stroke = byKeysym[UInt(XK_Return)] ?? spare(for: UInt(XK_Return), upper: UInt(XK_Return))
        case "\t": stroke = byKeysym[UInt(XK_Tab)] ?? spare(for: UInt(XK_Tab), upper: UInt(XK_Tab))
        default:
            if let known = byCharacter[scalar.value] {
                stroke = known
                break
            }
            let keysym = UInt(xkb_utf32_to_keysym(scalar.value))
            guard keysym != 0 else { return true }
            // Both cases on the spare key, so that clients reading the core keymap see the right pair.
            let lower = Self.scalar(Character(scalar).lowercased()) ?? scalar
            let upper = Self.scalar(Character(scalar).uppercased()) ?? scalar
            let lowerSym = UInt(xkb_utf32_to_keysym(lower.value))
            let upperSym = UInt(xkb_utf32_to_keysym(upper.value))
            if lower != upper && scalar == upper && lowerSym != 0 {
                stroke = spare(for: lowerSym, upper: keysym).map {
                    Stroke(keycode: $0.keycode, modifiers: $0.modifiers | UInt32(ShiftMask))
                }
            } else {
                stroke = spare(for: keysym, upper: lower != upper && upperSym != 0 ? upperSym : keysym)
            }
        }
        guard let stroke else { return false }
        press(stroke)
        return true
    }

    private static func scalar(_ string: String) -> Unicode.Scalar? {
        let scalars = string.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    /// Presses the modifiers, the key, and releases them all, in one burst.
    private func press(_ stroke: Stroke, holding extra: [UInt8] = []) {
        var modifiers: [UInt8] = extra
        for bit in 0..<8 where stroke.modifiers & (1 << UInt32(bit)) != 0 {
            let keycode = keymap.modifierKeycodes[bit]
            if keycode != 0 && !modifiers.contains(keycode) { modifiers.append(keycode) }
        }
        for keycode in modifiers { XTestFakeKeyEvent(display, UInt32(keycode), 1, 0) }
        XTestFakeKeyEvent(display, UInt32(stroke.keycode), 1, 0)
        XTestFakeKeyEvent(display, UInt32(stroke.keycode), 0, 0)
        for keycode in modifiers.reversed() { XTestFakeKeyEvent(display, UInt32(keycode), 0, 0) }
    }

    // MARK: - Spare keycodes

    /// A spare keycode holding (lower, upper), mapped now if it does not hold them already; nil when the
    /// keycode to map was pressed and not yet read (the queue waits then).
    private func spare(for lower: UInt, upper: UInt) -> Stroke? {
        let wanted = [lower, upper]
        if let (keycode, _) = spareContents.first(where: { $0.value == wanted }) {
            spareLastUse[keycode] = EventLoop.monotonicNow()
            sparesPressed.append(keycode)
            return Stroke(keycode: keycode, modifiers: 0)
        }
        guard let keycode = Self.spareToMap(spareKeycodes, lastUse: spareLastUse) else {
            return Stroke(keycode: 0, modifiers: 0)
        }
        guard isRead(keycode) else { return nil }
        spareLastUse[keycode] = EventLoop.monotonicNow()
        sparesPressed.append(keycode)
        var syms = wanted.map { KeySym($0) }
        XChangeKeyboardMapping(display, Int32(keycode), 2, &syms, 1)
        spareContents[keycode] = wanted
        record.write(spareContents)
        return Stroke(keycode: keycode, modifiers: 0)
    }

    /// Whether the client that got the last press of `keycode` has read it: it said so since, or the
    /// press is older than `spareReadTimeout`, or older than `spareReuseDelay` for a client that cannot
    /// be asked. Otherwise the client is asked with a ping and the queue waits (`waiting`).
    private func isRead(_ keycode: UInt8) -> Bool {
        guard let last = spareLastUse[keycode] else { return true }
        let now = EventLoop.monotonicNow()
        if now >= last + Self.spareReadTimeout { return true }
        var window = spareTypedInto[keycode] ?? 0
        if sparesPressed.contains(keycode) {
            // Pressed earlier in this drain: the focus is not written down yet.
            var revert: Int32 = 0
            XGetInputFocus(display, &window, &revert)
        }
        if let read = lastReadBy, read.window == window, read.time >= last { return true }
        XFlush(display)
        if window > 1, let stamp = receipt.ask(window) {
            waiting = (keycode, window, stamp, last + Self.spareReadTimeout)
        } else if now >= last + Self.spareReuseDelay {
            return true
        } else {
            waiting = (keycode, window, nil, last + Self.spareReuseDelay)
        }
        return false
    }

    /// The spare keycode to map anew: the one pressed longest ago, one never pressed first (the first
    /// in the keymap's order among equals), so that a character typed a moment ago keeps its keycode and
    /// typing seldom waits for a client to read (docs/performance.md has the figures).
    static func spareToMap(_ keycodes: [UInt8], lastUse: [UInt8: Double]) -> UInt8? {
        keycodes.min { (lastUse[$0] ?? -.infinity) < (lastUse[$1] ?? -.infinity) }
    }


    /// Types what is still queued, waiting out each deadline, then empties every spare keycode used, so
    /// the keymap is as it was before Keypane started.
    public func restore() {
        while let waiting {
            let wait = waiting.deadline - EventLoop.monotonicNow()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            stopWaiting()
            drain()
        }
        for keycode in spareContents.keys.sorted() {
            var none: [KeySym] = [0]
            XChangeKeyboardMapping(display, Int32(keycode), 1, &none, 1)
        }
        spareContents = [:]
        record.write(spareContents)
        XSync(display, 0)
    }

    // MARK: - Keymap

    /// Called on MappingNotify: the keymap changed from `first` for `count` keycodes. Changes to our own
    /// spare keycodes alone are ours and need no reload.
    public func keymapChanged(first: Int, count: Int) {
        let range = first..<(first + max(count, 1))
        if range.allSatisfy({ spareKeycodes.contains(UInt8(truncatingIfNeeded: $0)) }) { return }
        keymapIsStale = true
    }

    /// Empties the spare keycodes a keyboard killed before its clean-up left mapped (see `SpareRecord`);
    /// returns how many. Called once, before the first keystroke.
    public func reclaimLeftoverSpares() -> Int {
        let emptied = record.reclaim()
        if emptied > 0 { keymapIsStale = true }
        return emptied
    }

    /// Reads the keymap now if it is not read yet, so that the next keystroke waits for nothing.
    public func prepare() { refreshIfNeeded() }

    /// Called when the active group may have changed.
    public func groupChanged() { keymapIsStale = true }

    private func refreshIfNeeded() {
        if keymapIsStale { reloadKeymap() }
    }

    private func reloadKeymap() {
        keymapIsStale = false
        guard let (read, lost) = Keymap.read(display, held: spareContents) else { return }
        keymap = read
        if !lost.isEmpty {
            for keycode in lost { spareContents[keycode] = nil }
            record.write(spareContents)
        }
    }
}
