public import Basics
internal import KeyboardModel
#if canImport(Glibc)
import Glibc
#endif

/// The user's settings file as the settings panel changes it: a setting's line at a time, every other
/// line (comments, settings the panel does not show, lines the keyboard could not read) kept as it was,
/// the whole written beside the file and renamed over it, readable by the user alone (0600).
public struct SettingsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Writes `changes` (a setting's new value, or nil to take its line out and have its default).
    public func change(_ changes: [(name: String, value: String?)]) throws(StateFile.Problem) {
        var text = ""
        // A file that is not there yet is made; one that cannot be read is not written over.
        if access(path, F_OK) == 0 || errno != ENOENT {
            do { text = String(decoding: try Files.readBytes(path), as: UTF8.self) } catch {
                throw StateFile.Problem(description: "\(error); the change is not kept")
            }
        }
        for change in changes { text = Self.edited(text, setting: change.name, to: change.value) }
        while text.hasSuffix("\n") { text.removeLast() }
        try StateFile(path: path).write(text, private: true)
    }

    /// The text with a setting's value changed: the last line that sets it (the one that counts) rewritten,
    /// its comment kept; or a line added at the end. A nil value takes out every line that sets it.
    public static func edited(_ text: String, setting name: String, to value: String?) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let setting = lines.indices.filter { Self.name(of: lines[$0]) == name }
        if let value {
            if let last = setting.last {
                lines[last] = "\(name) = \(value)" + comment(of: lines[last])
            } else {
                lines.append("\(name) = \(value)")
            }
        } else {
            for index in setting.reversed() { lines.remove(at: index) }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The setting a line sets, as the settings file is read (`name = value`, `#` a comment); nil for a
    /// comment, a blank line or a line of another form.
    static func name(of line: String) -> String? {
        let content = line.prefix { $0 != "#" }
        guard let equals = content.firstIndex(of: "=") else { return nil }
        let name = String(content[..<equals].trimmingSpaces)
        return name.isEmpty ? nil : name
    }

    /// A line's comment with the space before it: "  # quiet at night".
    static func comment(of line: String) -> String {
        guard let hash = line.firstIndex(of: "#") else { return "" }
        var start = hash
        while start > line.startIndex, line[line.index(before: start)] == " " || line[line.index(before: start)] == "\t" {
            start = line.index(before: start)
        }
        return String(line[start...])
    }
}
