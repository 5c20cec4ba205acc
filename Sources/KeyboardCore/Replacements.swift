public import Basics
public import Typing

extension Keyboard {
    /// The text replacements kept in `file` (the standard ones while there is no file), and what is wrong
    /// with lines left out. A file that cannot be read gives the standard ones and says why.
    public static func readReplacements(_ file: StateFile) -> (replacements: TextReplacements, problems: [String]) {
        do {
            guard let text = try file.readText() else { return (.standard, []) }
            var problems: [String] = []
            let replacements = TextReplacements(text: text, file: file.path, problems: &problems)
            return (replacements, problems)
        } catch {
            return (.standard, ["\(error); the standard text replacements hold"])
        }
    }

    /// Reads the replacements again (`keypane replace` changed them).
    func reloadReplacements() {
        guard let file = configuration.replacementsFile else { return }
        let (replacements, problems) = Self.readReplacements(file)
        for problem in problems { warn(problem) }
        changeKeyboardEngine { $0.replacements = replacements }
    }

    /// Keeps text replacements changed in the settings panel, and types with them; a file with lines
    /// that cannot be read is not written over (said once, the change made for this run only).
    func keepReplacements(_ replacements: TextReplacements) {
        changeKeyboardEngine { $0.replacements = replacements }
        guard let file = configuration.replacementsFile else { return }
        let (_, problems) = Self.readReplacements(file)
        guard problems.isEmpty else {
            warn("\(file.path) has lines it cannot read; the change is not kept there: mend them first")
            return
        }
        do { try file.write(String(replacements.serialized.dropLast()), private: true) } catch { warn("\(error)") }
    }
}
