#if canImport(Glibc)
import Glibc
#endif

/// Where the floating keyboard was left, kept between runs in one line of text: "x y", in pixels of the
/// root window.
public struct PositionFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file in $XDG_STATE_HOME/keypane (else ~/.local/state/keypane), or nil with neither set.
    public static func standard() -> PositionFile? {
        let state: String
        if let value = getenv("XDG_STATE_HOME"), value.pointee != 0 {
            state = String(cString: value)
        } else if let home = getenv("HOME"), home.pointee != 0 {
            state = String(cString: home) + "/.local/state"
        } else {
            return nil
        }
        return PositionFile(path: state + "/keypane/floating-position")
    }

    /// Why a position could not be read or kept.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The position kept, nil when there is none yet; a file that says something else is a problem that
    /// names it.
    public func load() throws(Problem) -> (x: Int, y: Int)? {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT { return nil }
            throw Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else {
            throw Problem(description: "\(path):1: empty: expected the position as two whole numbers, x and y")
        }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2, let x = Int(fields[0]), let y = Int(fields[1]) else {
            throw Problem(description: "\(path):1: '\(line.trimmingSuffix())' is not a position: expected two whole numbers, x and y")
        }
        return (x, y)
    }

    /// Keeps a position: written beside the file and renamed over it, so a crash never leaves half a file.
    public func save(x: Int, y: Int) throws(Problem) {
        makeDirectories(upTo: path)
        let temporary = path + ".new"
        guard let file = fopen(temporary, "w") else {
            throw Problem(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let text = "\(x) \(y)\n"
        let written = fputs(text, file) >= 0
        let closed = fclose(file) == 0
        guard written && closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Problem(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private func makeDirectories(upTo file: String) {
        var prefix = file.hasPrefix("/") ? "" : "."
        for part in file.split(separator: "/").dropLast() {
            prefix += "/" + part
            mkdir(prefix, 0o755)
        }
    }
}

extension String {
    func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last == "\n" || last == " " || last == "\r" { text.removeLast() }
        return text
    }
}
