internal import KeyboardModel
public import EventLoop

#if canImport(Glibc)
import Glibc
#endif

/// Control of a running keyboard from other programs (`keypane show`, `keypane set --type email`, a kiosk
/// script) over a Unix socket in $XDG_RUNTIME_DIR, one per display.
///
/// One request a connection: the client writes its request and shuts its side for writing; the keyboard
/// answers and closes. A request is UTF-8: the command on the first line, then what it carries (`set`:
/// `name=value` lines; `type`: the text itself). The answer is `ok` or `error: MESSAGE` on its first
/// line, then any output. Requests are at most `ControlRequest.limit` bytes.
public enum ControlRequest: Equatable, Sendable {
    case show, hide, toggle, status
    /// Forgets the words the keyboard learned (`keypane forget`).
    case forget
    /// Reads the text replacements again (`keypane replace`).
    case replacements
    /// What a text field asks for before it is edited: a keyboard type (or layout name) and a Return key.
    case set(type: String?, returnKey: String?)
    /// Types text into the focused window through the keyboard's injector.
    case type(String)
    /// Opens the settings panel on a page (the first when nil) and shows the keyboard (`keypane settings`).
    case settings(page: String?)

    public static let limit = 65_536

    public var encoded: [UInt8] {
        switch self {
        case .show: Array("show".utf8)
        case .hide: Array("hide".utf8)
        case .toggle: Array("toggle".utf8)
        case .status: Array("status".utf8)
        case .forget: Array("forget".utf8)
        case .replacements: Array("replacements".utf8)
        case .set(let type, let returnKey):
            Array((["set"] + (type.map { ["type=\($0)"] } ?? []) + (returnKey.map { ["return-key=\($0)"] } ?? []))
                .joined(separator: "\n").utf8)
        case .type(let text): Array("type\n\(text)".utf8)
        case .settings(let page): Array(("settings" + (page.map { "\n" + $0 } ?? "")).utf8)
        }
    }

    /// Reads a request; a message that says what is wrong with it otherwise.
    public static func parse(_ bytes: [UInt8]) -> Result<ControlRequest, ControlError> {
        guard bytes.count <= limit else { return .failure(ControlError("request longer than \(limit) bytes")) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ControlError("request is not UTF-8 text"))
        }
        // Lines end at each line feed, by scalar ("\r\n" is one Character in Swift); a carriage return
        // before it (a script that writes CRLF) is dropped.
        func line(_ scalars: Substring.UnicodeScalarView) -> String {
            String(String.UnicodeScalarView(scalars.last == "\r" ? scalars.dropLast() : scalars))
        }
        let scalars = Substring(text).unicodeScalars
        let newline = scalars.firstIndex(of: "\n")
        let command = line(scalars[..<(newline ?? scalars.endIndex)])
        // The text to type is taken as sent, carriage returns and all.
        let body = newline.map { String(String.UnicodeScalarView(scalars[scalars.index(after: $0)...])) } ?? ""
        switch command {
        case "show": return body.isEmpty ? .success(.show) : takesNothing(command)
        case "hide": return body.isEmpty ? .success(.hide) : takesNothing(command)
        case "toggle": return body.isEmpty ? .success(.toggle) : takesNothing(command)
        case "status": return body.isEmpty ? .success(.status) : takesNothing(command)
        case "forget": return body.isEmpty ? .success(.forget) : takesNothing(command)
        case "replacements": return body.isEmpty ? .success(.replacements) : takesNothing(command)
        case "set":
            var type: String?, returnKey: String?
            for line in Substring(body).unicodeScalars.split(separator: "\n").map(line) where !line.isEmpty {
                guard let equals = line.firstIndex(of: "=") else {
                    return .failure(ControlError("'set' takes name=value lines, not '\(shown(line))'"))
                }
                let value = String(line[line.index(after: equals)...])
                switch line[..<equals] {
                case "type": type = value
                case "return-key": returnKey = value
                default: return .failure(ControlError("'set' takes type and return-key, not '\(shown(line[..<equals]))'"))
                }
            }
            guard type != nil || returnKey != nil else { return .failure(ControlError("'set' needs a type or a return-key")) }
            return .success(.set(type: type, returnKey: returnKey))
        case "type":
            guard !body.isEmpty else { return .failure(ControlError("'type' needs text")) }
            return .success(.type(body))
        case "settings":
            let page = line(Substring(body).unicodeScalars)
            return .success(.settings(page: page.isEmpty ? nil : page))
        default:
            return .failure(ControlError("unknown command '\(shown(command))': expected show, hide, toggle, status, forget, replacements, set, type or settings"))
        }
    }

    /// A piece of a request, as an answer quotes it: at most 40 characters, control characters escaped, so
    /// that an answer is always one line.
    private static func shown(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(40) {
            out += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return out
    }

    private static func takesNothing(_ command: String) -> Result<ControlRequest, ControlError> {
        .failure(ControlError("'\(command)' takes nothing more"))
    }
}

public struct ControlError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where the control socket of a display is: `$XDG_RUNTIME_DIR/keypane-N.socket` for display `:N`, or
/// without $XDG_RUNTIME_DIR a folder of the user's own in /tmp, made with mode 0700.
public enum ControlSocket {
    public static func path(display name: String) -> String {
        // ":0", ":0.0", "host:0.1": the display number names the socket.
        let afterColon = name.split(separator: ":").last.map(String.init) ?? name
        let number = afterColon.split(separator: ".").first.map(String.init) ?? "0"
        let safe = String(number.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        return runtimeDirectory() + "/keypane-\(safe.isEmpty ? "0" : safe).socket"
    }

    static func runtimeDirectory() -> String {
        if let value = getenv("XDG_RUNTIME_DIR"), value.pointee != 0 { return String(cString: value) }
        let fallback = "/tmp/keypane-\(Int(getuid()))"
        _ = mkdir(fallback, 0o700)
        return fallback
    }

    /// Sends a request to the keyboard listening at `path` and returns its answer's output.
    public static func send(_ request: ControlRequest, to path: String, timeout: Int = 10) throws(ControlError) -> String {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw ControlError("cannot make a socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(socket) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard var address = Self.address(path) else { throw ControlError("socket path too long: \(path)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = errno == ENOENT || errno == ECONNREFUSED ? "no keyboard is running" : String(cString: strerror(errno))
            throw ControlError("\(reason) (no answer at \(path))")
        }
        var bytes = request.encoded
        guard bytes.count <= ControlRequest.limit else { throw ControlError("request longer than \(ControlRequest.limit) bytes") }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ControlError("cannot send to the keyboard: \(String(cString: strerror(errno)))") }
            sent += count
        }
        shutdown(socket, Int32(SHUT_WR))
        bytes = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ControlError("no answer from the keyboard: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        let answer = String(decoding: bytes, as: UTF8.self)
        let firstLine = answer.prefix { $0 != "\n" }
        let output = String(answer.dropFirst(firstLine.count + 1))
        if firstLine == "ok" { return output }
        if firstLine.hasPrefix("error: ") { throw ControlError(String(firstLine.dropFirst(7))) }
        throw ControlError("the keyboard's answer cannot be read")
    }

    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}

/// The keyboard's side of the socket, one of the event loop's sources: accepts connections from the same
/// user only, gathers each request without blocking the keyboard, and answers it with what `answer` says
/// (or an error for a malformed one).
public final class ControlServer: EventSource {
    let path: String
    let listener: Int32
    private let answer: (ControlRequest) -> Result<String, ControlError>
    /// Connections still sending their request: descriptor, what came so far, when they connected.
    private var clients: [Client] = []
    private typealias Client = (fd: Int32, bytes: [UInt8], since: Double)
    /// Unfinished requests kept at once; a newer connection sends the oldest away, so a flood of clients
    /// that never finish holds at most this many requests' bytes and never keeps others from an answer.
    static let maximumClients = 8
    /// A client that has not sent its whole request by then is dropped.
    static let patience = 2.0

    /// Listens at `path`. A socket file left by a keyboard that is gone is replaced; one with a keyboard
    /// answering is not.
    public init(path: String, answer: @escaping (ControlRequest) -> Result<String, ControlError>) throws(ControlError) {
        self.path = path
        self.answer = answer
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ControlError("cannot make a socket: \(String(cString: strerror(errno)))") }
        guard var address = ControlSocket.address(path) else {
            Glibc.close(fd)
            throw ControlError("socket path too long: \(path)")
        }
        func bindSocket() -> Int32 {
            // Made with mode 0600: only its user can connect.
            let mask = umask(0o177)
            defer { umask(mask) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        var bound = bindSocket()
        if bound != 0 && errno == EADDRINUSE && (try? ControlSocket.send(.status, to: path, timeout: 1)) == nil {
            unlink(path)
            bound = bindSocket()
        }
        // A long queue of waiting connections: a flood fills it more slowly than each turn empties it.
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlError("cannot listen at \(path): \(reason)")
        }
        listener = fd
    }

    /// The listener and the clients still sending, until the oldest of them runs out of patience.
    public func prepare(now: Double) -> Interest {
        // Asked before every wait, nearly always with no client.
        guard !clients.isEmpty else { return .reading(listener) }
        return .reading([listener] + clients.map(\.fd), deadline: clients.map(\.since).min().map { $0 + Self.patience })
    }

    public func turn(_ ready: [Readiness], now: Double) { service(now: now) }

    /// Accepts every waiting connection and reads what is ready; answers each complete request. A new
    /// connection is read at once, so a request sent whole is answered without taking a place.
    private func service(now: Double) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        clients = clients.compactMap { read($0, into: &buffer, now: now) }
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { break }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            var credentials = PeerCredentials()
            var size = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.uid == getuid() else {
                reply(fd, "error: refused: the keyboard takes commands from its own user only\n")
                continue
            }
            guard let unfinished = read((fd, [], now), into: &buffer, now: now) else { continue }
            if clients.count == Self.maximumClients {
                reply(clients.removeFirst().fd, "error: too many unfinished requests at once; this one waited longest\n")
            }
            clients.append(unfinished)
        }
    }

    /// Reads what a client sent; answers it and returns nil once its request is whole (or it went wrong),
    /// else returns it with the bytes so far.
    private func read(_ client: Client, into buffer: inout [UInt8], now: Double) -> Client? {
        var client = client
        while true {
            let count = Glibc.read(client.fd, &buffer, buffer.count)
            if count > 0 {
                client.bytes += buffer[0..<count]
                if client.bytes.count > ControlRequest.limit {
                    reply(client.fd, "error: request longer than \(ControlRequest.limit) bytes\n")
                    return nil
                }
                continue
            }
            if count == 0 {
                switch ControlRequest.parse(client.bytes).flatMap(answer) {
                case .success(let output): reply(client.fd, "ok\n" + output)
                case .failure(let error): reply(client.fd, "error: \(error)\n")
                }
                return nil
            }
            if errno == EINTR { continue }
            if errno == EAGAIN && now < client.since + Self.patience { return client }
            reply(client.fd, "error: the request did not end in time\n")
            return nil
        }
    }

    /// struct ucred of <sys/socket.h>, which Swift sees only with _GNU_SOURCE.
    struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// Answers and closes. Answers are short; a client that does not read them loses them.
    private func reply(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.close(fd)
    }

    /// Stops listening and removes the socket file.
    public func close() {
        clients.forEach { Glibc.close($0.fd) }
        clients = []
        Glibc.close(listener)
        unlink(path)
    }
}
