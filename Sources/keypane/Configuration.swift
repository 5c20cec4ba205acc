#if canImport(Glibc)
import Glibc
#endif
internal import Basics

import KeyboardModel

/// The user's configuration: $XDG_CONFIG_HOME/keypane (else ~/.config/keypane), holding `config`, the
/// settings file, and `layouts/`, layouts of the user's own that add to the bundled ones or replace them.
///
/// The settings file takes the `run` command's long options, one a line, as `name = value`; flags take
/// yes/no, on/off, true/false or 1/0; `#` starts a comment:
///
///     keyboards = default, email, number-pad
///     theme = dark
///     sound = off
///
/// Options on the command line override the file. A line that cannot be read is said with its file and
/// line and left out, and so is a value the keyboard cannot use: the keyboard starts with its default
/// for that setting.
enum Configuration {
    /// The folder, or nil when neither $XDG_CONFIG_HOME nor $HOME is set.
    static func directory() -> String? {
        if let value = getenv("XDG_CONFIG_HOME"), value.pointee != 0 { return String(cString: value) + "/keypane" }
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) + "/.config/keypane" }
        return nil
    }

    /// The folder of the user's own layout files, or nil as for `directory()`.
    static func layoutsDirectory() -> String? { directory().map { $0 + "/layouts" } }

    /// The administrator's file of locked settings: `keypane/locked` in the first folder of
    /// $XDG_CONFIG_DIRS that has one (default /etc/xdg). It takes the settings file's lines; each setting
    /// it names has its value, which the user's file cannot change and the settings panel shows greyed,
    /// and `settings-panel = off` takes the panel away.
    static func lockFile() -> String? {
        let folders = getenv("XDG_CONFIG_DIRS").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        for folder in folders.split(separator: ":") where access("\(folder)/keypane/locked", F_OK) == 0 {
            return "\(folder)/keypane/locked"
        }
        return nil
    }

    /// The locked settings, and whether the panel is locked away; what could not be read is said.
    static func readLocks(for command: Command) -> (options: ParsedOptions, panelLocked: Bool) {
        guard let path = lockFile() else { return (ParsedOptions(), false) }
        var text = ""
        do { text = String(decoding: try Files.readBytes(path), as: UTF8.self) } catch {
            warn("\(error); no settings are locked")
            return (ParsedOptions(), false)
        }
        var panelLocked = false
        // The panel's own line is no option of `run`: read here, and left out of what is parsed.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let content = line.prefix { $0 != "#" }
            let parts = content.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2, parts[0] == "settings-panel" else { return line }
            panelLocked = boolean(String(parts[1])) == false
            return ""
        }
        let (options, problems) = parse(lines.joined(separator: "\n"), file: path, for: command)
        problems.forEach { warn($0) }
        return (options, panelLocked)
    }

    /// Options the settings file may not set: which file to read, and help.
    static let commandLineOnly: Set = ["config", "help"]

    /// Reads a settings file for `command`. A missing file is no settings unless `required`.
    static func read(_ path: String, for command: Command, required: Bool) throws(FileError) -> (ParsedOptions, [String]) {
        guard let file = fopen(path, "rb") else {
            if errno == ENOENT && !required { return (ParsedOptions(), []) }
            throw FileError(path: path, errno: errno)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
            bytes += buffer[0..<count]
            // A settings file is a few lines; anything this long is not one.
            guard bytes.count <= 1 << 20 else { return (ParsedOptions(), ["\(path): longer than 1 MiB, not read"]) }
        }
        return parse(String(decoding: bytes, as: UTF8.self), file: path, for: command)
    }

    /// Reads the text of a settings file: the options it sets, each with the file and line it came from,
    /// and what could not be read.
    static func parse(_ text: String, file: String, for command: Command) -> (ParsedOptions, [String]) {
        var options = ParsedOptions()
        var problems: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let origin = "\(file):\(index + 1)"
            let line = rawLine.prefix { $0 != "#" }.trimmingSpaces
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append("\(origin): expected 'name = value', not '\(line)'; line ignored")
                continue
            }
            let name = String(line[..<equals].trimmingSpaces)
            let value = String(line[line.index(after: equals)...].trimmingSpaces)
            guard let option = command.options.first(where: { $0.name == name }), !commandLineOnly.contains(name) else {
                let known = command.options.map(\.name).filter { !commandLineOnly.contains($0) }
                problems.append("\(origin): unknown setting '\(name)': expected one of \(known.joined(separator: ", ")); line ignored")
                continue
            }
            if option.value != nil {
                guard !value.isEmpty else {
                    problems.append("\(origin): '\(name)' needs a value (\(option.value!)); line ignored")
                    continue
                }
                options.values[name] = value
            } else {
                guard let on = Self.boolean(value) else {
                    problems.append("\(origin): '\(name)' is on or off, not '\(value)'; line ignored")
                    continue
                }
                options.flags[name] = on
            }
            options.origins[name] = origin
        }
        return (options, problems)
    }

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "on", "true", "1": true
        case "no", "off", "false", "0": false
        default: nil
        }
    }

    /// The bundled layouts with the user's added: a user's file of the same name replaces the bundled one.
    /// A user's file that cannot be read is said and left out, so the keyboard still starts; a broken
    /// bundled file is an error.
    static func layouts(bundled: String, user: String?, only names: Set<String>? = nil) throws(LayoutError)
        -> (LayoutLibrary, [String]) {
        // Files are read as they are parsed: with `only`, those named and what they inherit from.
        let bundledFiles = try LayoutLibrary.layoutPaths(in: bundled)
        var files = bundledFiles
        var problems: [String] = []
        var userFiles: Set<String> = []
        if let user, Assets.isDirectory(user) {
            do {
                let own = try LayoutLibrary.layoutPaths(in: user)
                files.merge(own) { _, users in users }
                userFiles = Set(own.values)
            } catch { problems.append("\(error); your layouts left out") }
        }
        // Each pass leaves out the user's file that broke the last (one that cannot be read, or is wrong).
        while true {
            do {
                return (try LayoutLibrary(files: files, only: names), problems)
            } catch {
                guard let name = files.first(where: { $0.value == error.location.file && userFiles.contains($0.value) })?.key
                else { throw error }
                problems.append("\(error); layout left out")
                userFiles.remove(files[name]!)
                // The bundled layout of that name, if there is one, comes back.
                files[name] = bundledFiles[name]
            }
        }
    }
}
