internal import CX11
public import XDisplay

/// The spare keycodes Keypane has mapped, kept on the root window (`_KEYPANE_SPARE_KEYCODES`: keycode,
/// lower and upper keysym for each) while they are mapped. A keyboard killed before it could empty them
/// (SIGKILL, a crash) leaves the record behind on the X server, and the next start empties what it names,
/// where the keycode still holds what the record says (a keymap loaded since is left alone).
struct SpareRecord {
    static let propertyName = "_KEYPANE_SPARE_KEYCODES"
    let display: OpaquePointer
    let root: UInt
    let atom: UInt

    init(connection: DisplayConnection) {
        display = connection.display
        root = connection.rootWindow
        atom = connection.atom(Self.propertyName)
    }

    /// Writes what the spare keycodes hold now (none: the record is removed).
    func write(_ contents: [UInt8: [UInt]]) {
        guard !contents.isEmpty else {
            XDeleteProperty(display, root, atom)
            return
        }
        var values: [Int] = []
        for (keycode, syms) in contents.sorted(by: { $0.key < $1.key }) where syms.count == 2 {
            values += [Int(keycode), Int(syms[0]), Int(syms[1])]
        }
        // Format 32 data is passed to Xlib as longs.
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, root, atom, UInt(XA_CARDINAL), 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    /// Empties the spare keycodes a previous run left mapped, and removes its record. Returns how many.
    func reclaim() -> Int {
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, root, atom, 0, 3 * 256, 0, UInt(XA_CARDINAL), &type, &format, &count,
                                 &after, &data) == Success, let data else { return 0 }
        defer { XFree(data) }
        guard type == UInt(XA_CARDINAL), format == 32 else { return 0 }
        let values = UnsafeRawPointer(data).assumingMemoryBound(to: Int.self)
        var emptied = 0
        for index in stride(from: 0, to: Int(count) - 2, by: 3) {
            let keycode = values[index], lower = values[index + 1], upper = values[index + 2]
            guard (8...255).contains(keycode) else { continue }
            var perKey: Int32 = 0
            guard let syms = XGetKeyboardMapping(display, UInt8(keycode), 1, &perKey) else { continue }
            let held = (0..<Int(perKey)).map { Int(syms[$0]) }
            XFree(syms)
            // Ours only while it holds what we put there (the core map pads with NoSymbol, or repeats the
            // group in the second group's columns).
            guard held.count >= 2, held[0] == lower, held[1] == upper,
                  held.dropFirst(2).allSatisfy({ $0 == 0 || $0 == lower || $0 == upper }) else { continue }
            var none: [KeySym] = [0]
            XChangeKeyboardMapping(display, Int32(keycode), 1, &none, 1)
            emptied += 1
        }
        XDeleteProperty(display, root, atom)
        XSync(display, 0)
        return emptied
    }
}
