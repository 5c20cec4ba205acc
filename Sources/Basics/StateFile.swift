#if canImport(Glibc)
import Glibc
#endif

/// One line of state kept between runs in $XDG_STATE_HOME/keypane (else ~/.local/state/keypane): where
/// the floating keyboard was left, the language last chosen, the emoji used lately. Written beside the file and renamed over it,
/// so a crash never leaves half a file.
public struct StateFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file of this name in the state folder, or nil with neither $XDG_STATE_HOME nor $HOME set.
    public static func standard(_ name: String) -> StateFile? {
        let state: String
        if let value = getenv("XDG_STATE_HOME"), value.pointee != 0 {
            state = String(cString: value)
        } else if let home = getenv("HOME"), home.pointee != 0 {
            state = String(cString: home) + "/.local/state"
        } else {
            return nil
        }
        return StateFile(path: state + "/keypane/" + name)
    }

    /// Why the state could not be read or kept.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The first line, without its line end; nil when there is no file yet (an empty file gives "").
    public func readLine() throws(Problem) -> String? {
        try readText().map { String($0.prefix { $0 != "\n" }).trimmingSuffix() }
    }

    /// The whole file (at most 64 KiB of it); nil when there is no file yet.
    public func readText() throws(Problem) -> String? {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT { return nil }
            throw Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Keeps a line (or lines) in place of the file's, ended by a line feed (none at all leaves the file
    /// empty); a private file is the user's alone (0600).
    public func write(_ line: String, private isPrivate: Bool = false) throws(Problem) {
        makeDirectories(upTo: path)
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, isPrivate ? 0o600 : 0o644)
        guard descriptor >= 0, let file = fdopen(descriptor, "w") else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw Problem(description: "cannot write \(temporary): \(reason)")
        }
        // A file left from a write that failed keeps its mode through O_CREAT.
        if isPrivate { fchmod(descriptor, 0o600) }
        // Nothing to keep is an empty file, not an empty line.
        let written = fputs(line.isEmpty ? "" : line + "\n", file) >= 0
        let closed = fclose(file) == 0
        guard written && closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Problem(description: "cannot write \(path): \(reason)")
        }
    }
}

/// Makes the folders a file goes in, those missing.
public func makeDirectories(upTo file: String) {
    var prefix = file.hasPrefix("/") ? "" : "."
    for part in file.split(separator: "/").dropLast() {
        prefix += "/" + part
        mkdir(prefix, 0o755)
    }
}

extension String {
    func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last == "\n" || last == " " || last == "\r" { text.removeLast() }
        return text
    }
}
