#if canImport(Glibc)
import Glibc
#endif


/// The X.Org inputtest driver's devices on a test's own Xorg (dummy video): a touch screen, an absolute
/// pointer and a keyboard, each fed through a Unix socket the driver listens on. Their events are a real
/// device's to the server: XI2 touches with the server's own touch ids (the first touch also moves the
/// pointer), pointer and key events from devices that are not XTest's.
///
/// The protocol (xf86-input-inputtest-protocol.h, version 1.1): little-endian messages, each an 8-byte
/// header (u32 length of the whole message, u32 type), the client's version first; a touch or pointer event
/// carries a 1040-byte valuator block whose axes 0 and 1 are x and y, 0 to 65535 across the screen.
/// `sync` waits until the server has processed everything sent. One connection per device for the
/// server's life: the driver does not notice a closed one.
public final class InputTestDevices {
    public enum Phase: UInt32, Sendable {
        case begin = 18, update = 19, end = 20
    }

    private let touchSocket: Int32
    private let pointerSocket: Int32
    private let keyboardSocket: Int32
    private let width: Int, height: Int

    public static func socketPath(_ directory: String, _ name: String) -> String { directory + "/\(name).sock" }

    /// Writes the server's configuration into `directory` (a path) and returns Xorg's arguments but the
    /// display (a number, or -displayfd).
    public static func serverArguments(width: Int, height: Int, directory: String) throws -> [String] {
        // A mode of the size asked for, at 60 Hz, within the monitor's wide ranges.
        let htotal = width + 24, vtotal = height + 3
        let clock = Double(htotal * vtotal * 60) / 1_000_000
        let devices = [("touch", "Touch"), ("pointer", "PointerAbsolute"), ("keyboard", "Keyboard")].map { name, type in
            """
            Section "InputDevice"
              Identifier "\(name)"
              Driver "inputtest"
              Option "SocketPath" "\(socketPath(directory, name))"
              Option "DeviceType" "\(type)"
            EndSection
            """
        }.joined(separator: "\n")
        let configuration = """
            Section "ServerFlags"
              Option "AutoAddDevices" "off"
              Option "AutoAddGPU" "off"
            EndSection
            Section "Device"
              Identifier "dummy"
              Driver "dummy"
              VideoRam \(width * height * 4 / 1024 + 4096)
            EndSection
            Section "Monitor"
              Identifier "monitor"
              HorizSync 5.0-1000.0
              VertRefresh 5.0-200.0
              Modeline "\(width)x\(height)" \(clock) \(width) \(width + 8) \(width + 16) \(htotal) \(height) \(height + 1) \(height + 2) \(vtotal)
            EndSection
            Section "Screen"
              Identifier "screen"
              Device "dummy"
              Monitor "monitor"
              DefaultDepth 24
              SubSection "Display"
                Depth 24
                Modes "\(width)x\(height)"
              EndSubSection
            EndSection
            \(devices)
            Section "ServerLayout"
              Identifier "layout"
              Screen "screen"
              InputDevice "touch"
              InputDevice "pointer" "CorePointer"
              InputDevice "keyboard" "CoreKeyboard"
            EndSection
            """
        let config = directory + "/xorg.conf"
        try write(configuration, to: config)
        // Xorg reads every file of its configuration folder; an empty folder would make it use the system's.
        let folder = directory + "/xorg.conf.d"
        mkdir(folder, 0o755)
        try write("", to: folder + "/empty.conf")
        return ["-config", config, "-configdir", folder, "-logfile", directory + "/xorg.log", "-noreset", "-nolisten", "tcp"]
    }

    /// Connects to the three devices of a server started with `serverArguments`.
    public init(directory: String, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        touchSocket = try Self.connect(Self.socketPath(directory, "touch"))
        pointerSocket = try Self.connect(Self.socketPath(directory, "pointer"))
        keyboardSocket = try Self.connect(Self.socketPath(directory, "keyboard"))
    }

    public func close() {
        for socket in [touchSocket, pointerSocket, keyboardSocket] { Glibc.close(socket) }
    }

    private static func connect(_ path: String) throws -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw InputTestError("cannot connect to the inputtest device at \(path)") }
        // The client's version, 1.1; the server answers with its own.
        send(socket, type: 0, [UInt8](le16(1) + le16(1)))
        _ = try readMessage(socket)
        return socket
    }

    // MARK: - Touch

    /// A touch point's event at a point of the screen; `sync` waits until the server has taken it.
    public func touch(_ id: UInt32, _ phase: Phase, x: Int, y: Int, sync: Bool = true) {
        Self.send(touchSocket, type: 6, le32(id) + le32(phase.rawValue) + valuators(x: x, y: y))
        if sync { self.sync(touchSocket) }
    }

    /// A finger put down and lifted `hold` seconds later at the same point.
    public func tap(x: Int, y: Int, hold: Double = 0.05, id: UInt32 = 1) {
        touch(id, .begin, x: x, y: y)
        usleep(useconds_t(hold * 1_000_000))
        touch(id, .end, x: x, y: y)
    }

    /// A finger put down at `from`, slid to `to` in `steps` moves over `seconds`, and lifted there.
    public func slide(from: (x: Int, y: Int), to: (x: Int, y: Int), seconds: Double = 0.3, steps: Int = 10, id: UInt32 = 1) {
        touch(id, .begin, x: from.x, y: from.y)
        for step in 1...steps {
            usleep(useconds_t(seconds / Double(steps) * 1_000_000))
            let t = Double(step) / Double(steps)
            touch(id, .update, x: from.x + Int(Double(to.x - from.x) * t), y: from.y + Int(Double(to.y - from.y) * t))
        }
        touch(id, .end, x: to.x, y: to.y)
    }

    // MARK: - Pointer and keys

    /// The absolute pointer moved to a point, and its button pressed and released there (a mouse click).
    public func click(x: Int, y: Int, button: Int32 = 1, hold: Double = 0.05) {
        // The valuator block holds doubles: C aligns it to 8 bytes, after padding.
        let pad: [UInt8] = [0, 0, 0, 0]
        Self.send(pointerSocket, type: 2, le32(1) + pad + valuators(x: x, y: y))
        Self.send(pointerSocket, type: 4, le32(1) + le32(UInt32(bitPattern: button)) + le32(1) + pad + valuators(x: x, y: y))
        sync(pointerSocket)
        usleep(useconds_t(hold * 1_000_000))
        Self.send(pointerSocket, type: 4, le32(1) + le32(UInt32(bitPattern: button)) + le32(0) + pad + valuators(x: x, y: y))
        sync(pointerSocket)
    }

    /// A key of the keyboard device (an X keycode) pressed or released.
    public func key(_ keycode: Int32, down: Bool) {
        Self.send(keyboardSocket, type: 5, le32(UInt32(bitPattern: keycode)) + le32(down ? 1 : 0))
        sync(keyboardSocket)
    }

    /// A key of the keyboard device (an X keycode) pressed and released, as a physical keyboard's.
    public func key(_ keycode: Int32, hold: Double = 0.05) {
        Self.send(keyboardSocket, type: 5, le32(UInt32(bitPattern: keycode)) + le32(1))
        sync(keyboardSocket)
        usleep(useconds_t(hold * 1_000_000))
        Self.send(keyboardSocket, type: 5, le32(UInt32(bitPattern: keycode)) + le32(0))
        sync(keyboardSocket)
    }

    // MARK: - Wire

    /// Waits until the server has processed everything sent on the socket.
    private func sync(_ socket: Int32) {
        Self.send(socket, type: 1, [])
        while let message = try? Self.readMessage(socket), message != 1 {}
    }

    /// x and y on axes 0 and 1, scaled to 0...65535 across the screen.
    private func valuators(x: Int, y: Int) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: 8)
        mask[0] = 0b11
        var values = [Double](repeating: 0, count: 64)
        values[0] = Double(x) * 65535 / Double(max(width - 1, 1))
        values[1] = Double(y) * 65535 / Double(max(height - 1, 1))
        return le32(0) + mask + [0, 0, 0, 0] + values.flatMap { le64($0.bitPattern) }
            + [UInt8](repeating: 0, count: 64 * 8)
    }

    private static func send(_ socket: Int32, type: UInt32, _ body: [UInt8]) {
        let message = le32(UInt32(8 + body.count)) + le32(type) + body
        // A connection the driver closed (a message it refused) fails the test, not the test runner.
        _ = message.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one message; returns its type.
    private static func readMessage(_ socket: Int32) throws -> UInt32 {
        let header = try readExactly(socket, 8)
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        if length > 8 { _ = try readExactly(socket, length - 8) }
        return UInt32(header[4]) | UInt32(header[5]) << 8 | UInt32(header[6]) << 16 | UInt32(header[7]) << 24
    }

    private static func readExactly(_ socket: Int32, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 5000) == 1 else { throw InputTestError("the inputtest device did not answer") }
            let got = bytes.withUnsafeMutableBytes { read(socket, $0.baseAddress! + done, count - done) }
            guard got > 0 else { throw InputTestError("the inputtest device closed") }
            done += got
        }
        return bytes
    }
}

/// What went wrong with the inputtest devices.
public struct InputTestError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

private func write(_ text: String, to path: String) throws {
    guard let file = fopen(path, "w") else { throw InputTestError("cannot write \(path)") }
    defer { fclose(file) }
    guard fputs(text, file) >= 0 else { throw InputTestError("cannot write \(path)") }
}

private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
private func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> (8 * $0)) & 0xFF) } }

