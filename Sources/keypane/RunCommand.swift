import ArgumentParser
import Injector
import KeyboardModel
import Render
import Typing
import X11Host
import XDisplay

/// `keypane` (or `keypane run`): the live keyboard, docked at the bottom of the screen.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show the keyboard, docked at the bottom of the primary monitor (the default command).",
        discussion: """
            The keyboard never takes focus: it types into whichever window has it. If a keyboard is already \
            running on the display, it is shown instead of starting another. Signals: SIGUSR1 hides the \
            keyboard, SIGUSR2 shows it again; SIGINT, SIGTERM and SIGHUP end it, restoring the keymap.
            """)

    @Option(help: ArgumentHelp("The keyboard shown first (a type or layout name); default: the first enabled.",
                               valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("The enabled keyboards, in Globe order, comma separated.", valueName: "list"))
    var keyboards = "default,desktop"

    @Option(name: .customLong("return-key"), help: "The Return key (\(ReturnKeyType.allNames)).")
    var returnKey = "default"

    @Option(help: "The colour theme: light or dark.")
    var theme = "light"

    @Option(help: ArgumentHelp("Height in pixels (300) or percent of the monitor (35%).", valueName: "height"))
    var height: String?

    @Option(help: ArgumentHelp("The RandR monitor to dock on (default: the primary).", valueName: "name"))
    var monitor: String?

    @Option(help: ArgumentHelp("The X display (default: $DISPLAY).", valueName: "name"))
    var display: String?

    @OptionGroup var layouts: LayoutOptionGroup

    func run() throws {
        let fail = { (message: String) -> Never in KeypaneFail(message) }
        let connection: DisplayConnection
        do { connection = try DisplayConnection(name: display) } catch { fail("\(error)") }
        if KeyboardHost.sendToRunning(.show, connection: connection) { return }

        let library = try layouts.library()
        var enabled = keyboards.split(separator: ",").map(String.init)
        for name in enabled where library[name] == nil {
            fail("unknown keyboard '\(name)' in --keyboards: expected one of \(library.layouts.keys.sorted().joined(separator: ", "))")
        }
        if let type, library[type] == nil {
            fail("unknown keyboard type '\(type)': expected one of \(library.layouts.keys.sorted().joined(separator: ", "))")
        }
        if let type, !enabled.contains(type) { enabled.append(type) }
        guard !enabled.isEmpty else { fail("--keyboards names no keyboard") }
        guard let returnKey = ReturnKeyType(rawValue: returnKey) else {
            fail("unknown return key '\(self.returnKey)': expected one of \(ReturnKeyType.allNames)")
        }
        guard let theme = Theme.named(theme) else { fail("unknown theme '\(self.theme)': expected light or dark") }
        var options = KeyboardHost.Options(monitor: monitor)
        if let height {
            if height.hasSuffix("%"), let percent = Double(height.dropLast()), percent > 0, percent <= 100 {
                options.heightFraction = percent / 100
            } else if let pixels = Int(height), pixels > 0 {
                options.height = pixels
            } else {
                fail("bad --height '\(height)': expected pixels (300) or a percentage (35%)")
            }
        }

        let injector: Injector
        do { injector = try Injector(connection: connection) } catch { fail("\(error)") }
        let engine: TypingEngine
        do {
            engine = try TypingEngine(library: library, enabled: enabled, current: enabled.firstIndex(of: type ?? enabled[0])!,
                                      returnKey: returnKey, width: 1024, height: 320)
        } catch { fail("\(error)") }
        let host = KeyboardHost(connection: connection, engine: engine, injector: injector, theme: theme, options: options)
        throw ExitCode(host.run())
    }
}

private func KeypaneFail(_ message: String) -> Never { fail(message) }
