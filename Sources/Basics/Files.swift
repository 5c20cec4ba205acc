#if canImport(Glibc)
import Glibc
#endif

/// Reading files and folders, with errors that name the file.
public enum Files {
    /// A file's bytes, read at once (its size asked first; /proc's files, which say no size, in steps).
    public static func readBytes(_ path: String) throws(FileError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw FileError(path: path, errno: errno) }
        defer { fclose(file) }
        var info = stat()
        let size = fstat(fileno(file), &info) == 0 ? max(0, Int(info.st_size)) : 0
        var bytes: [UInt8] = []
        var step = max(size + 1, 4096)
        while true {
            let start = bytes.count
            var count = 0
            bytes.append(contentsOf: repeatElement(0, count: step))
            bytes.withUnsafeMutableBufferPointer { buffer in
                count = fread(buffer.baseAddress! + start, 1, step, file)
            }
            bytes.removeLast(step - count)
            if count < step { break }
            step = 65_536
        }
        if ferror(file) != 0 { throw FileError(path: path, errno: errno) }
        return bytes
    }

    /// Writes text to a file, in place of what it held.
    public static func write(_ text: String, to path: String) throws(FileError) {
        guard let file = fopen(path, "wb") else { throw FileError(path: path, errno: errno, verb: "write") }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw FileError(path: path, errno: errno, verb: "write") }
    }

    /// The names of the files in a folder whose names end in `suffix` (not hidden ones), sorted, without
    /// the suffix; nil when the folder cannot be opened (`errno` says why).
    public static func names(in directory: String, ending suffix: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasSuffix(suffix) && !name.hasPrefix(".") && name.count > suffix.count {
                names.append(String(name.dropLast(suffix.count)))
            }
        }
        return names.sorted()
    }
}

/// A file that could not be read or written: its path and why.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// What could not be done to it: "read" or "write".
    public var verb: String

    public init(path: String, reason: String, verb: String = "read") {
        self.path = path
        self.reason = reason
        self.verb = verb
    }

    public init(path: String, errno: Int32, verb: String = "read") {
        self.init(path: path, reason: String(cString: strerror(errno)), verb: verb)
    }

    public var description: String { "\(path): cannot \(verb) the file: \(reason)" }
}
