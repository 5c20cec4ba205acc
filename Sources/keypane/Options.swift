internal import Basics
// Keypane's command line: each command declares its options once, for parsing and for its --help.
//
// A small parser of our own rather than a package: it keeps start-up short (no reflection over property
// wrappers, no Foundation in the binary) and the build free of downloads, as a Debian package needs.

import X11Host

/// One option of a command: `--name VALUE` (or `--name=VALUE`), or a flag `--name` / `--no-name`.
struct Option {
    var name: String
    /// The placeholder of the value, as help shows it; nil for a flag.
    var value: String?
    var help: String
    /// A value the command cannot do without.
    var required = false
    /// Whether `--no-NAME` gives the option the value "no" (an option that was a flag once).
    var offValue = false

    static func value(_ name: String, _ value: String, _ help: String, required: Bool = false) -> Option {
        Option(name: name, value: value, help: help, required: required)
    }

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, value: nil, help: help)
    }
}

/// A command: its name, what it does, and its options.
struct Command {
    var name: String
    var abstract: String
    var discussion: String?
    var options: [Option]
    /// What the command takes besides options, as help shows it ("TEXT"); nil for nothing.
    var operand: String? = nil
    /// Whether the operand may be left out.
    var operandOptional = false

    /// What `keypane NAME --help` prints.
    var help: String {
        var text = "Usage: keypane \(name)"
        for option in options where option.required { text += " --\(option.name) \(option.value ?? "")" }
        text += " [options]" + (operand.map { operandOptional ? " [\($0)]" : " [--] " + $0 } ?? "") + "\n\n" + wrap(abstract, indent: 0) + "\n"
        if let discussion { text += "\n" + wrap(discussion, indent: 0) + "\n" }
        text += "\nOptions:\n"
        let all = options + [.flag("help", "Show this help.")]
        for option in all {
            var left = "  --" + ((option.value == nil || option.offValue) && option.name != "help" ? "[no-]" : "") + option.name
            if let value = option.value { left += " " + value }
            let column = 28
            let help = (option.required ? "Required. " : "") + option.help
            if left.count >= column {
                text += left + "\n" + wrap(help, indent: column) + "\n"
            } else {
                text += left + String(repeating: " ", count: column - left.count)
                    + wrap(help, indent: column).dropFirst(column) + "\n"
            }
        }
        return text
    }

    /// Reads the arguments after the command's name.
    func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> ParsedOptions {
        var parsed = ParsedOptions()
        var rest = arguments[...]
        var operands: [String] = []
        while let argument = rest.popFirst() {
            if argument == "--", operand != nil {
                operands += rest
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                guard operand != nil else { throw UsageError("unexpected argument '\(argument)'") }
                operands.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let option = options.first(where: { $0.name == name && $0.value != nil }) {
                guard let value = inline ?? rest.popFirst() else {
                    throw UsageError("--\(name) needs a value (\(option.value!))")
                }
                parsed.values[name] = value
            } else if inline == nil, options.contains(where: { $0.name == name && $0.value == nil }) {
                parsed.flags[name] = true
            } else if inline == nil, name.hasPrefix("no-"),
                      options.contains(where: { $0.name == name.dropFirst(3) && $0.value == nil }) {
                parsed.flags[String(name.dropFirst(3))] = false
            } else if inline == nil, name.hasPrefix("no-"),
                      options.contains(where: { $0.name == name.dropFirst(3) && $0.offValue }) {
                // `--no-auto-show` for `--auto-show never`, as it was when the option was a flag.
                parsed.values[String(name.dropFirst(3))] = "no"
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
        for option in options where option.required && parsed.values[option.name] == nil {
            throw UsageError("missing --\(option.name) \(option.value ?? "")")
        }
        if let operand {
            guard !operands.isEmpty || operandOptional else { throw UsageError("missing \(operand)") }
            parsed.operands = operands
        }
        return parsed
    }
}

/// The options given, by name: on the command line, or in the configuration file (see Configuration).
struct ParsedOptions {
    var values: [String: String] = [:]
    var flags: [String: Bool] = [:]
    /// Where each option from the configuration file was set: "FILE:LINE". Options from the command
    /// line have none.
    var origins: [String: String] = [:]
    /// What was given besides options, in order.
    var operands: [String] = []

    subscript(_ name: String) -> String? { values[name] }

    /// These options, with those of `other` in place of any of the same name.
    func overridden(by other: ParsedOptions) -> ParsedOptions {
        var merged = self
        merged.values.merge(other.values) { $1 }
        merged.flags.merge(other.flags) { $1 }
        for name in Array(other.values.keys) + Array(other.flags.keys) { merged.origins[name] = other.origins[name] }
        return merged
    }

    /// An option's value as `read` makes it; nil when it is not given. A value that `read` refuses ends
    /// the program with `problem(value, option)` when it came from the command line, the option named
    /// "--height"; from the configuration file, it is said with the file and line, the option named as the
    /// file spells it ("height"), and nil returned, so that the default holds.
    func value<T>(_ name: String, _ read: (String) -> T?,
                  problem: (_ value: String, _ option: String) -> String) -> T? {
        guard let text = values[name] else { return nil }
        if let value = read(text) { return value }
        guard let origin = origins[name] else { fail(problem(text, "--\(name)")) }
        warn("\(origin): \(problem(text, name)); using the default")
        return nil
    }

    /// An option's value as a whole number, or a usage error naming it.
    func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text) else { throw UsageError("--\(name) must be a whole number, not '\(text)'") }
        return number
    }

    func flag(_ name: String, default value: Bool) -> Bool { flags[name] ?? value }

    /// `--label-size` as a scale of the labels' usual size (1 for 100%).
    var labelScale: Double {
        value("label-size", { text in
            Double(text.hasSuffix("%") ? String(text.dropLast()) : text).flatMap { (50...200).contains($0) ? $0 / 100 : nil }
        }, problem: { "bad \($1) '\($0)': expected a percentage from 50 to 200" }) ?? 1
    }
}

/// A command line that cannot be understood, said in one line.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Breaks text into lines of at most 100 columns, each after `indent` spaces.
func wrap(_ text: String, indent: Int, width: Int = 100) -> String {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        for word in paragraph.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
    }
    let pad = String(repeating: " ", count: indent)
    return lines.map { pad + $0 }.joined(separator: "\n")
}
