internal import Basics
import KeyboardCore
import KeyboardModel
import Words
import X11Host

#if canImport(Glibc)
import Glibc
#endif

/// `keypane show`, `hide`, `toggle`, `status`, `set` and `type`: commands for the keyboard running on the
/// display, sent over its control socket (see ControlRequest).
struct ControlCommand {
    static let display = Option.value("display", "name", "The X display whose keyboard to control (default: $DISPLAY).")
    static let commands = [
        Command(name: "show", abstract: "Show the running keyboard.", options: [display]),
        Command(name: "hide", abstract: "Hide the running keyboard.", options: [display]),
        Command(name: "toggle", abstract: "Show the running keyboard if hidden, else hide it.", options: [display]),
        Command(name: "status", abstract: "Print the running keyboard's state, one 'name: value' a line.",
                discussion: "visible (yes or no), type, layer, shift (off, on or caps-lock), return-key, keyboards "
                    + "(enabled, in Globe order), placement (docked or floating), secure (yes or no), remembered "
                    + "(characters of typed text kept for smart changes), suggestions (the bar's words), theme and sound "
                    + "(on or off); settings (the page) while the settings panel is open, and scanned and scan-step "
                    + "while switch scanning.",
                options: [display]),
        Command(name: "forget", abstract: "Forget the words the keyboard learned from your typing.",
                discussion: "Removes $XDG_DATA_HOME/keypane/learned-en (else ~/.local/share/keypane/learned-en), "
                    + "and tells a running keyboard to forget them too.",
                options: [display]),
        Command(name: "replace", abstract: "List, add or remove text replacements: shortcuts typed that become phrases.",
                discussion: "'keypane replace list', 'keypane replace add omw On my way!' or 'keypane replace remove "
                    + "omw'. Typed and followed by space or punctuation, a shortcut becomes its phrase (a delete right "
                    + "after takes it back), where the suggestion bar shows; never in passwords. Kept in "
                    + "$XDG_DATA_HOME/keypane/replacements (else ~/.local/share/keypane/replacements), mode 0600; a "
                    + "running keyboard reads them again.",
                options: [display], operand: "list | add SHORTCUT PHRASE | remove SHORTCUT"),
        Command(name: "set", abstract: "Switch the running keyboard to what a text field asks for, as iOS's "
                    + "keyboardType and returnKeyType do.",
                discussion: "A type not among the enabled keyboards is enabled. The keyboard is not shown: "
                    + "follow with 'keypane show'.",
                options: [.value("type", "type", "The keyboard type or layout name (\(KeyboardType.allNames))."),
                          .value("return-key", "key", "The Return key (\(ReturnKeyType.allNames))."),
                          display]),
        Command(name: "settings", abstract: "Open the settings panel on the running keyboard, in the keys' place.",
                discussion: "PAGE is one of settings (the first), keyboards, typing, look, sound, accessibility, "
                    + "privacy, showing or about. Every change made in the panel applies at once and is written to "
                    + "the settings file; Done returns to the keyboard. The panel is also the last entry of the "
                    + "Globe key's list. An administrator locks settings, or the panel, in "
                    + "/etc/xdg/keypane/locked (see FILES in the manual).",
                options: [display], operand: "PAGE", operandOptional: true),
        Command(name: "type", abstract: "Type text into the focused window, through the running keyboard.",
                discussion: "Several words are typed with a space between them; '--' ends the options, "
                    + "for text that starts with '--'. At most 64 KiB.",
                options: [display], operand: "TEXT"),
    ]

    let name: String
    let options: ParsedOptions

    /// `keypane forget`: the file goes, and a running keyboard forgets what it holds.
    func forget() -> Never {
        guard let folder = RunCommand.learnedFolder() else { fail("no HOME or XDG_DATA_HOME: no learned words to forget", command: "keypane forget") }
        do { try LearnedFile.removeAll(in: folder) } catch { fail("\(error)", command: "keypane forget") }
        if let display = options["display"] ?? getenv("DISPLAY").map({ String(cString: $0) }), !display.isEmpty {
            _ = try? ControlSocket.send(.forget, to: ControlSocket.path(display: display))
        }
        print("forgot the learned words (\(folder)/learned-*)")
        exit(0)
    }

    /// `keypane replace list|add|remove`: the file changes, and a running keyboard reads it again.
    func replace() -> Never {
        let command = "keypane replace"
        guard let file = RunCommand.replacementsFile() else { fail("no HOME or XDG_DATA_HOME: nowhere to keep replacements", command: command) }
        var (replacements, problems) = Keyboard.readReplacements(file)
        for problem in problems { warn(problem) }
        let words = options.operands
        switch (words.first, words.count) {
        case ("list", 1):
            for entry in replacements.entries { print("\(entry.shortcut)\t\(entry.phrase)") }
            exit(0)
        case ("add", 3...):
            guard replacements.set(words[1], words.dropFirst(2).joined(separator: " ")) else {
                Keypane.usage("a shortcut is one word of letters or digits, and the phrase one line", command: command)
            }
        case ("remove", 2):
            guard replacements.remove(words[1]) else { fail("no shortcut '\(words[1])'", command: command) }
        default:
            Keypane.usage("expected list, add SHORTCUT PHRASE or remove SHORTCUT", command: command)
        }
        // Lines the file got wrong are never lost: a file with problems is not written over.
        guard problems.isEmpty else { fail("\(file.path) has lines it cannot read; mend them first", command: command) }
        do { try file.write(String(replacements.serialized.dropLast()), private: true) } catch { fail("\(error)", command: command) }
        if let display = options["display"] ?? getenv("DISPLAY").map({ String(cString: $0) }), !display.isEmpty {
            _ = try? ControlSocket.send(.replacements, to: ControlSocket.path(display: display))
        }
        exit(0)
    }

    func run() -> Never {
        let request: ControlRequest
        switch name {
        case "replace": replace()
        case "show": request = .show
        case "hide": request = .hide
        case "toggle": request = .toggle
        case "status": request = .status
        case "forget": forget()
        case "settings":
            guard options.operands.count <= 1 else { Keypane.usage("expected one page at most", command: "keypane settings") }
            request = .settings(page: options.operands.first)
        case "set":
            guard options["type"] != nil || options["return-key"] != nil else {
                Keypane.usage("missing --type or --return-key", command: "keypane set")
            }
            request = .set(type: options["type"], returnKey: options["return-key"])
        default: request = .type(options.operands.joined(separator: " "))
        }
        guard let display = options["display"] ?? getenv("DISPLAY").map({ String(cString: $0) }), !display.isEmpty else {
            fail("no display: set DISPLAY or pass --display", command: "keypane \(name)")
        }
        do {
            let output = try ControlSocket.send(request, to: ControlSocket.path(display: display))
            print(output, terminator: "")
            exit(0)
        } catch {
            fail("\(error)", command: "keypane \(name)")
        }
    }
}
