import Foundation

/// One key of `keypane render --geometry`.
struct GeometryKey: Decodable {
    var label: String
    var x, y, width, height: Int
    var text: String?
    var keysym: String?
    var action: String?
    /// A settings row's value, as the row shows it (On, Dark, F12).
    var value: String?
    var alternates: [String]?

    var centre: (Int, Int) { (x + width / 2, y + height / 2) }
}

struct Geometry: Decodable {
    var type: String
    var layer: String
    var layers: [String]
    var width: Int
    var height: Int
    var keys: [GeometryKey]

    func key(action: String) -> GeometryKey? { keys.first { $0.action == action } }
    func key(label: String) -> GeometryKey? { keys.first { $0.label == label } }
}

/// Lays a keyboard out as the live one does, through `keypane render --geometry`, with the layouts of
/// `configDirectory` (none unless given).
func geometry(type: String, layer: String? = nil, width: Int, height: Int, extra: [String] = [],
              configDirectory: URL? = nil) throws -> Geometry {
    let dir = FileManager.default.temporaryDirectory
    let id = UUID().uuidString
    let json = dir.appendingPathComponent("g-\(id).json"), png = dir.appendingPathComponent("g-\(id).png")
    defer {
        try? FileManager.default.removeItem(at: json)
        try? FileManager.default.removeItem(at: png)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: keypanePath)
    process.arguments = ["render", "--type", type, "--width", "\(width)", "--height", "\(height)",
                         "--output", png.path, "--geometry", json.path] + (layer.map { ["--layer", $0] } ?? []) + extra
    process.environment = ProcessInfo.processInfo.environment.merging(
        ["XDG_CONFIG_HOME": (configDirectory ?? dir.appendingPathComponent("no-config-\(id)")).path]) { $1 }
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestFailure("keypane render failed for \(type) \(layer ?? "")") }
    return try JSONDecoder().decode(Geometry.self, from: Data(contentsOf: json))
}

/// A running keypane on a session, with its window found.
final class LiveKeyboard {
    let session: XSession
    let process: Process
    let window: UInt
    private(set) var frame: (x: Int, y: Int, width: Int, height: Int)
    let stderr: Pipe
    var extra: [String]
    /// The height of the floating keyboard's handle, below the keys; 0 when docked.
    var handle = 0
    private var cache: [String: Geometry] = [:]

    /// Options that switch off every text behaviour, so that each key types what it shows.
    static let plainText = ["--autocapitalization", "none", "--no-autocorrection", "--no-smart-quotes",
                            "--no-smart-dashes"]

    /// Starts keypane; unless `plainText` is false, with the text behaviours (autocapitalization, smart
    /// punctuation) off, for tests of what each key types; unless `sound` is true, without the input click;
    /// unless `autoShow` is true, not following the focus (these sessions have no accessibility bus).
    init(session: XSession, arguments: [String] = [], environment: [String: String] = [:],
         plainText: Bool = true, sound: Bool = false, autoShow: Bool = false, program: String = keypanePath) throws {
        self.session = session
        stderr = Pipe()
        extra = []
        process = try session.start(program, arguments + (plainText ? Self.plainText : []) + (sound ? [] : ["--no-sound"])
                                        + (autoShow ? [] : ["--no-auto-show"]),
                                    stderr: stderr.fileHandleForWriting, environment: environment)
        var found: UInt?
        guard waitUntil({ found = session.window(classNamed: "keypane"); return found != nil }), let found else {
            throw TestFailure("the keypane window did not appear")
        }
        window = found
        frame = session.frame(found)
        // Let the first frame land before the first tap.
        usleep(100_000)
    }

    /// Waits until the window has a frame that passes `check` (after a screen change), and keeps it.
    func waitForFrame(_ check: ((x: Int, y: Int, width: Int, height: Int)) -> Bool) -> Bool {
        let moved = waitUntil { check(session.frame(window)) }
        frame = session.frame(window)
        // Let the frame at the new size land before the next tap.
        usleep(100_000)
        return moved
    }

    /// The geometry keypane shows for a type and layer (nil: the first layer).
    func geometry(type: String, layer: String?) throws -> Geometry {
        let key = "\(type)/\(layer ?? "")/\(frame.width)x\(frame.height - handle)/\(extra)"
        if let cached = cache[key] { return cached }
        let result = try EndToEndTests.geometry(type: type, layer: layer, width: frame.width,
                                                height: frame.height - handle, extra: extra,
                                                configDirectory: session.configDirectory)
        cache[key] = result
        return result
    }

    /// The geometry of a page of the settings panel, at the keyboard's size.
    func geometry(type: String, layer: String?, settings page: String) throws -> Geometry {
        let saved = extra
        extra += ["--settings", page]
        defer { extra = saved }
        return try geometry(type: type, layer: layer)
    }

    func tap(_ key: GeometryKey, hold: Double = 0) {
        let (x, y) = key.centre
        session.tap(x: frame.x + x, y: frame.y + y, hold: hold)
    }

    /// Holds a key until its alternates open, slides to the given cell and lets go. The cells are laid out as
    /// KeyboardModel's PopupLayout does: key-wide cells from the key's left edge, kept on screen; alternates
    /// popups here have the key's character plus its alternates (8 cells for e).
    func holdAndChoose(_ key: GeometryKey, alternate index: Int, cells: Int = 8) {
        let (kx, ky) = key.centre
        session.press(x: frame.x + kx, y: frame.y + ky)
        usleep(700_000)
        let cell = alternateCell(key, index: index, cells: cells)
        session.move(x: frame.x + cell.x, y: frame.y + cell.y)
        session.release()
    }

    /// The centre of an alternates popup's cell, in the keyboard's coordinates: one row above the key, up to
    /// a dozen; more (two people's tones) in a square grid, row after row, kept inside the keyboard.
    func alternateCell(_ key: GeometryKey, index: Int, cells: Int = 8) -> (x: Int, y: Int) {
        let (kx, ky) = key.centre
        let cell = max(key.width, key.height * 2 / 3)
        let columns = cells > 12 ? Int(Double(cells).squareRoot()) : cells
        let rows = (cells + columns - 1) / columns
        let height = frame.height - handle
        let popupHeight = min(key.height * 11 / 10 * rows, height)
        let popupX = min(max(kx - key.width / 2, 0), frame.width - cell * columns)
        let popupY = min(max(key.y - popupHeight - 4, 0), height - popupHeight)
        let row = popupHeight / rows
        let y = rows > 1 ? popupY + row * (index / columns) + row / 2 : ky
        return (popupX + cell * (index % columns) + cell / 2, y)
    }

    /// The centre of a row of the Globe key's list of keyboards (one row per keyboard enabled, above the
    /// key), in the keyboard's coordinates.
    func keyboardListRow(_ globe: GeometryKey, index: Int, count: Int) -> (x: Int, y: Int) {
        let row = max(globe.height * 4 / 5, 28)
        let height = min(row * count, frame.height - handle)
        let top = min(max(globe.y - height - 4, 0), frame.height - handle - height)
        return (globe.x + globe.width / 2, top + height / count * index + height / count / 2)
    }

    /// Ends keypane with a signal and returns its exit status and what it printed.
    func terminate(_ signal: Int32 = SIGTERM) -> (Int32, String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? stderr.fileHandleForWriting.close()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }
}

/// xterm with focus, its input written byte for byte to a file (raw mode, no echo).
final class Terminal {
    let output: URL
    let window: UInt

    init(session: XSession) throws {
        output = session.directory.appendingPathComponent("typed-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        // A name of its own, so that a second terminal in a session is never mistaken for the first.
        let name = "testterm-\(UUID().uuidString.prefix(8))"
        try session.start("/usr/bin/xterm", ["-class", "KeypaneTestTerm", "-name", name, "-geometry", "80x10+0+0",
                                             "-e", "/bin/sh", "-c", "stty raw -echo; exec cat > '\(output.path)'"],
                          environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        var found: UInt?
        guard waitUntil({ found = session.window(classNamed: name); return found != nil }), let found else {
            throw TestFailure("xterm did not appear")
        }
        window = found
        // openbox focuses a new window, but not one that maps while it is still starting (seen under load):
        // then it is given focus as a user would, from a taskbar.
        if !waitUntil(timeout: 3, { session.focusedWindowFamily().contains(found) }) { session.activate(found) }
        guard waitUntil({ session.focusedWindowFamily().contains(found) }) else {
            let focus = session.focusedWindowFamily().first.map { "0x" + String($0, radix: 16) } ?? "none"
            throw TestFailure("xterm (0x\(String(found, radix: 16))) did not get focus; it is on \(focus)")
        }
        usleep(200_000)
    }

    var bytes: Data { (try? Data(contentsOf: output)) ?? Data() }

    /// What a text field would hold after the bytes that arrived: DEL or BS deletes the character before.
    var text: String {
        var result = ""
        for character in String(decoding: bytes, as: UTF8.self) {
            if character == "\u{7f}" || character == "\u{8}" {
                if !result.isEmpty { result.removeLast() }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Waits until the text holds `expected`, and returns what it holds.
    func waitFor(text expected: String, timeout: Double = 10) -> String {
        _ = waitUntil(timeout: timeout) { self.text == expected }
        return text
    }

    /// Waits for `count` bytes (or more) to arrive, then returns all that did.
    func waitFor(count: Int, timeout: Double = 15) -> Data {
        _ = waitUntil(timeout: timeout) { self.bytes.count >= count }
        usleep(100_000)
        return bytes
    }
}
