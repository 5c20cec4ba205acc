import CX11
import CXTest
import Foundation
import TestSupport

/// The keypane program built beside this test bundle.
let keypanePath: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("keypane").path
}()

/// The English dictionary keypane finds in the source tree's Assets (make builds it before the tests).
let dictionaryPath: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Assets").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("Assets/dictionaries/en.dict").path
}()

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds, up to `timeout` seconds.
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Starts a process with no signal blocked. A test runs on a thread that blocks most signals, and a child
/// inherits its thread's mask: started plainly, it could not be stopped with SIGTERM or told to reload
/// with SIGHUP.
func launch(_ process: Process) throws {
    var open = sigset_t(), mask = sigset_t()
    sigemptyset(&open)
    pthread_sigmask(SIG_SETMASK, &open, &mask)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    try process.run()
}

/// Stops a process by its id: SIGTERM, and SIGKILL if it is still there after two seconds.
func stopProcess(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGTERM)
    if !waitUntil(timeout: 2, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// A private X server (Xvfb, on a display number of its own) with openbox, and the processes started on it.
/// Everything started is stopped by process id when the session ends.
final class XSession {
    let display: String
    let width: Int, height: Int
    private(set) var processes: [Process] = []
    private let xvfb: Process
    /// The inputtest devices of a session with `realInput`.
    private(set) var inputDevices: InputTestDevices?
    let connection: OpaquePointer
    let directory: URL
    /// $XDG_CONFIG_HOME of the programs started on this session.
    var configDirectory: URL { directory.appendingPathComponent("config") }
    /// $XDG_RUNTIME_DIR of the programs started on this session, where keypane's control socket is.
    var runtimeDirectory: URL { directory.appendingPathComponent("runtime") }
    /// $XDG_DATA_HOME of the programs started: where keypane keeps learned words.
    var dataDirectory: URL { directory.appendingPathComponent("data") }
    /// $XDG_CACHE_HOME of the programs started: where keypane remembers the labels' font.
    var cacheDirectory: URL { directory.appendingPathComponent("cache") }
    /// $XDG_STATE_HOME of the programs started: the floating position, the language last chosen.
    var stateDirectory: URL { directory.appendingPathComponent("state") }

    /// `dpi`: the screen's density as Xvfb reports it (its physical size follows), nil for Xvfb's own.
    /// `nestedIn`: instead of Xvfb, Xephyr in a window of that session, whose keys (XTest's there) reach this
    /// server from Xephyr's own keyboard device, as a physical keyboard's would.
    /// `realInput`: instead of Xvfb, Xorg with the dummy video driver and the inputtest driver's touch
    /// screen, absolute pointer and keyboard (`inputDevices`), whose events are a real device's: XI2
    /// touches, which neither Xvfb nor XTest can make.
    init(width: Int = 1280, height: Int = 800, windowManager: Bool = true, dpi: Int? = nil,
         nestedIn host: XSession? = nil, realInput: Bool = false) throws {
        self.width = width
        self.height = height
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("runtime"),
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Xvfb picks a free display number and writes it to standard output.
        xvfb = Process()
        if realInput {
            xvfb.executableURL = URL(fileURLWithPath: "/usr/lib/xorg/Xorg")
            xvfb.arguments = ["-displayfd", "1"]
                + (try InputTestDevices.serverArguments(width: width, height: height, directory: directory.path))
        } else if let host {
            xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xephyr")
            xvfb.arguments = ["-displayfd", "1", "-screen", "\(width)x\(height)", "-noreset", "-nolisten", "tcp"]
            xvfb.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": host.display]) { $1 }
        } else {
            xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            xvfb.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-noreset", "-nolisten", "tcp"]
                + (dpi.map { ["-dpi", "\($0)"] } ?? [])
        }
        if let path = xvfb.executableURL?.path, !FileManager.default.isExecutableFile(atPath: path) {
            try? FileManager.default.removeItem(at: directory)
            throw TestFailure("\(path) is not installed: run the end-to-end tests with `make test`, which installs what they need")
        }
        let out = Pipe()
        xvfb.standardOutput = out
        xvfb.standardError = FileHandle.nullDevice
        try launch(xvfb)
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw TestFailure("Xvfb did not start") }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let connection = XOpenDisplay(display) else { throw TestFailure("cannot open \(display)") }
        // Windows come and go while the tests walk the tree: a vanished window is no failure.
        XSetErrorHandler { _, _ in 0 }
        self.connection = connection
        if realInput { inputDevices = try InputTestDevices(directory: directory.path, width: width, height: height) }
        if windowManager {
            try start("/usr/bin/openbox", ["--config-file", "/dev/null"])
            guard waitUntil({ self.windowManagerIsRunning }) else { throw TestFailure("openbox did not start") }
        }
    }

    deinit { stop() }

    func stop() {
        for process in processes.reversed() { stopProcess(process) }
        processes = []
        if xvfb.isRunning {
            XCloseDisplay(connection)
            stopProcess(xvfb)
        }
        // After the server: the inputtest driver spins on a connection closed under it.
        inputDevices?.close()
        inputDevices = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the window manager (SIGKILL, as a crash) and waits until the root window says none runs.
    func killWindowManager() throws {
        guard let manager = processes.first(where: { $0.executableURL?.path == "/usr/bin/openbox" && $0.isRunning })
        else { throw TestFailure("no window manager to kill") }
        kill(manager.processIdentifier, SIGKILL)
        manager.waitUntilExit()
        // openbox's check window went with it, so the property names a window that no longer exists.
        XSync(connection, 0)
    }

    /// Starts openbox again, as a session does after its window manager crashed.
    func startWindowManager() throws {
        try start("/usr/bin/openbox", ["--config-file", "/dev/null"])
        guard waitUntil({ self.windowManagerIsRunning }) else { throw TestFailure("openbox did not start") }
    }

    /// Kills the X server itself, as when a session ends under a running keyboard.
    func killServer() {
        stopProcess(xvfb)
    }

    @discardableResult
    func start(_ path: String, _ arguments: [String], stdout: FileHandle? = nil, stderr: FileHandle? = nil,
               environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        // The session's own configuration folder, empty unless a test fills it: never the user's.
        env["XDG_CONFIG_HOME"] = configDirectory.path
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        // Learned words go to the session's folder, never the user's.
        env["XDG_DATA_HOME"] = dataDirectory.path
        // The record of the labels' font too, and the state kept between runs (the language last chosen).
        env["XDG_CACHE_HOME"] = cacheDirectory.path
        env["XDG_STATE_HOME"] = stateDirectory.path
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try launch(process)
        processes.append(process)
        return process
    }

    /// Runs a command on this display to its end; what it printed on standard error is in `errors`.
    @discardableResult
    func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String, errors: String) {
        let pipe = Pipe(), errorPipe = Pipe()
        let process = try start(path, arguments, stdout: pipe.fileHandleForWriting,
                                stderr: errorPipe.fileHandleForWriting, environment: environment)
        try pipe.fileHandleForWriting.close()
        try errorPipe.fileHandleForWriting.close()
        // Standard error is a line or two: it cannot fill its pipe while standard output is read.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let errors = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        processes.removeAll { $0 === process }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    // MARK: - Looking at the server

    var root: UInt { XDefaultRootWindow(connection) }

    var windowManagerIsRunning: Bool { property(root, "_NET_SUPPORTING_WM_CHECK", type: XA_WINDOW) != nil }

    func atom(_ name: String) -> UInt { XInternAtom(connection, name, 0) }

    /// A window property of format 32, as integers.
    func property(_ window: UInt, _ name: String, type: UInt) -> [Int]? {
        var actualType: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XSync(connection, 0)
        guard XGetWindowProperty(connection, window, atom(name), 0, 1024, 0, type, &actualType, &format, &count,
                                 &after, &data) == Success, let data, count > 0 else { return nil }
        defer { XFree(data) }
        return data.withMemoryRebound(to: Int.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// Every window below the root, depth first.
    func allWindows(under window: UInt? = nil) -> [UInt] {
        var rootReturn: UInt = 0, parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard XQueryTree(connection, window ?? root, &rootReturn, &parent, &children, &count) != 0 else { return [] }
        defer { if let children { XFree(children) } }
        var result: [UInt] = []
        for index in 0..<Int(count) {
            let child = children![index]
            result.append(child)
            result += allWindows(under: child)
        }
        return result
    }

    func windowClass(_ window: UInt) -> (String, String)? {
        var hint = XClassHint()
        guard XGetClassHint(connection, window, &hint) != 0 else { return nil }
        defer {
            XFree(hint.res_name)
            XFree(hint.res_class)
        }
        return (String(cString: hint.res_name), String(cString: hint.res_class))
    }

    /// The title (_NET_WM_NAME) of the mapped window whose WM_CLASS instance is `name`.
    func title(of name: String) -> String? {
        window(classNamed: name).flatMap(title(of:))
    }

    /// The title of the mapped window whose WM_CLASS class is `className`.
    func title(ofClass className: String) -> String? {
        mappedWindow { windowClass($0)?.1 == className }.flatMap(title(of:))
    }

    /// A window's title (_NET_WM_NAME).
    func title(of window: UInt) -> String? {
        var actualType: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(connection, window, atom("_NET_WM_NAME"), 0, 4096, 0, atom("UTF8_STRING"), &actualType,
                                 &format, &count, &after, &data) == Success, let data, format == 8 else { return nil }
        defer { XFree(data) }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }

    /// The mapped window whose WM_CLASS instance is `name`.
    func window(classNamed name: String) -> UInt? {
        mappedWindow { windowClass($0)?.0 == name }
    }

    /// The first mapped window, depth first, that passes `test`.
    private func mappedWindow(_ test: (UInt) -> Bool) -> UInt? {
        XSync(connection, 0)
        return allWindows().first { window in
            var attributes = XWindowAttributes()
            XGetWindowAttributes(connection, window, &attributes)
            return attributes.map_state == IsViewable && test(window)
        }
    }

    /// A window no window manager handles (as a notification or an on-screen display makes), mapped and
    /// raised above everything at the given place.
    func overlay(x: Int, y: Int, width: Int, height: Int) -> UInt {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let window = XCreateWindow(connection, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, Int32(CopyFromParent),
                                   UInt32(InputOutput), nil, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(connection, window)
        XSync(connection, 0)
        return window
    }

    func destroy(_ window: UInt) {
        XDestroyWindow(connection, window)
        XSync(connection, 0)
    }

    /// The windows directly below the root, bottom to top as they are stacked.
    func stacking() -> [UInt] {
        var rootReturn: UInt = 0, parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard XQueryTree(connection, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// The window directly below the root that holds `window` (its window manager's frame, or itself).
    func topLevel(of window: UInt) -> UInt {
        var current = window
        while true {
            var rootReturn: UInt = 0, parent: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var count: UInt32 = 0
            guard XQueryTree(connection, current, &rootReturn, &parent, &children, &count) != 0 else { return current }
            if let children { XFree(children) }
            if parent == root || parent == 0 { return current }
            current = parent
        }
    }

    /// A window's rectangle in root coordinates.
    func frame(_ window: UInt) -> (x: Int, y: Int, width: Int, height: Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(connection, window, &attributes)
        var x: Int32 = 0, y: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(connection, window, root, 0, 0, &x, &y, &child)
        return (Int(x), Int(y), Int(attributes.width), Int(attributes.height))
    }

    /// Asks the window manager to focus a window, as a pager or taskbar click does (_NET_ACTIVE_WINDOW, source 2).
    func activate(_ window: UInt) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atom("_NET_ACTIVE_WINDOW")
        event.xclient.format = 32
        event.xclient.data.l.0 = 2
        event.xclient.data.l.1 = Int(CurrentTime)
        XSendEvent(connection, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XSync(connection, 0)
    }

    /// The window with keyboard focus, and its ancestors.
    func focusedWindowFamily() -> [UInt] {
        var focus: UInt = 0
        var revert: Int32 = 0
        XGetInputFocus(connection, &focus, &revert)
        var family: [UInt] = []
        var window = focus
        while window != 0 && window != root && window > 1 {
            family.append(window)
            var rootReturn: UInt = 0, parent: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var count: UInt32 = 0
            guard XQueryTree(connection, window, &rootReturn, &parent, &children, &count) != 0 else { break }
            if let children { XFree(children) }
            window = parent
        }
        return family
    }

    /// Keycodes the server holds down now.
    func keysDown() -> [Int] {
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(connection, &keys)
        var down: [Int] = []
        for (index, byte) in keys.enumerated() {
            for bit in 0..<8 where UInt8(bitPattern: byte) & (1 << bit) != 0 { down.append(index * 8 + bit) }
        }
        return down
    }

    // MARK: - Screens

    /// Changes the screen's size with xrandr, as a rotation or a new monitor would: Xvfb has one output,
    /// "screen", whose modes can be any size up to the one it started with.
    func setScreenSize(width: Int, height: Int) throws {
        let mode = "\(width)x\(height)"
        if !modes.contains(mode) {
            try xrandr(["--newmode", mode, "0", "\(width)", "0", "0", "0", "\(height)", "0", "0", "0"])
            try xrandr(["--addmode", "screen", mode])
            modes.insert(mode)
        }
        try xrandr(["--output", "screen", "--mode", mode])
    }

    private var modes: Set<String> = []

    /// Adds a RandR monitor covering part of the screen (no output of its own), as a second screen would;
    /// its size in millimetres is as given, else a quarter of its pixels.
    func addMonitor(_ name: String, x: Int, y: Int, width: Int, height: Int,
                    millimetres: (width: Int, height: Int)? = nil) throws {
        let size = millimetres ?? (width / 4, height / 4)
        try xrandr(["--setmonitor", name, "\(width)/\(size.width)x\(height)/\(size.height)+\(x)+\(y)", "none"])
    }

    func removeMonitor(_ name: String) throws {
        try xrandr(["--delmonitor", name])
    }

    private func xrandr(_ arguments: [String]) throws {
        let (status, output, errors) = try run("/usr/bin/xrandr", arguments)
        guard status == 0 else { throw TestFailure("xrandr \(arguments.joined(separator: " ")) failed: \(output)\(errors)") }
    }

    /// The server's whole keymap, as xkbcomp prints it.
    func keymapDump() throws -> String {
        try run("/usr/bin/xkbcomp", ["-xkb", display, "-"]).output
    }
}
