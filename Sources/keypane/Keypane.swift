internal import Basics
import KeyboardModel
import Render
import X11Host
import Trace

#if canImport(Glibc)
import Glibc
#endif

/// The `keypane` program: `run` (the default), `render` and `layouts`.
@main
enum Keypane {
    /// From the VERSION file, through the BuildInfo plugin.
    static let version = BuildInfo.version
    /// What `--version` prints: the version and the commit it was built from.
    static var versionLine: String { "keypane \(version) (commit \(BuildInfo.commit))" }

    static let commands = [RunCommand.command] + ControlCommand.commands
        + [LayoutsCommand.command, RenderCommand.command]

    static var help: String {
        var text = """
            keypane \(version): an on-screen keyboard for X11, after the iOS system keyboard.

            Usage: keypane [run] [options]
                   keypane COMMAND [options]

            Commands:

            """
        for command in commands {
            let left = "  " + command.name + (command.name == "run" ? " (default)" : "")
            text += left + String(repeating: " ", count: max(1, 16 - left.count)) + command.abstract + "\n"
        }
        text += """

            Keyboard types: \(KeyboardType.allNames).
            Return keys: \(ReturnKeyType.allNames).
            'keypane COMMAND --help' lists a command's options; --version prints the version; --manual prints
            the manual page (roff), which has the configuration file, signals and files too.

            """
        return text
    }

    static func main() {
        Trace.step("main")
        var arguments = CommandLine.arguments.dropFirst()
        switch arguments.first {
        case "--help", "-h", "help":
            print(help, terminator: "")
            exit(0)
        case "--version":
            print(versionLine)
            exit(0)
        case "--manual":
            print(Manual.page, terminator: "")
            exit(0)
        default: break
        }
        var command = RunCommand.command
        if let name = arguments.first, !name.hasPrefix("-") {
            guard let named = commands.first(where: { $0.name == name }) else {
                usage("unknown command '\(name)': expected one of \(commands.map(\.name).joined(separator: ", "))")
            }
            command = named
            arguments = arguments.dropFirst()
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help, terminator: "")
            exit(0)
        }
        let options: ParsedOptions
        do { options = try command.parse(arguments) } catch {
            usage("\(error)", command: command.name == "run" ? "keypane" : "keypane \(command.name)")
        }
        // By name: the keyboard's start makes no other command's help.
        switch command.name {
        case RunCommand.command.name: exit(RunCommand(RunCommand.withConfiguration(options)).run())
        case RenderCommand.name: RenderCommand(options).run()
        case LayoutsCommand.name: LayoutsCommand(options).run()
        default: ControlCommand(name: command.name, options: options).run()
        }
    }

    /// A command line that cannot be understood: one line, and status 64 (EX_USAGE).
    static func usage(_ message: String, command: String = "keypane") -> Never {
        fail("\(message) (see \(command) --help)", command: command, status: 64)
    }
}

/// The option every command that reads layouts has.
let layoutsOption = Option.value("layouts", "dir", "The folder of layout files (default: the installed ones, "
                                 + "with those in $XDG_CONFIG_HOME/keypane/layouts added or in their place).")

/// The layouts from --layouts, or the installed ones with the user's own (in the configuration folder's
/// layouts/) added; or a one-line message and exit status 1. A user's layout that cannot be read is said
/// and left out, unless it is among the problems already `said`. With `only`, just the layouts named and
/// those they inherit from are parsed (the others are still `available` by name).
func loadLibrary(layouts: String?, only names: Set<String>? = nil,
                 said: [String] = []) -> (LayoutLibrary, problems: [String]) {
    do {
        let (library, problems) = try readLibrary(layouts: layouts, only: names)
        problems.filter { !said.contains($0) }.forEach { warn($0) }
        return (library, problems)
    } catch { fail(error.description) }
}

/// loadLibrary's work: the library and the problems to say, or what stops it thrown.
func readLibrary(layouts: String?, only names: Set<String>? = nil) throws(UsageError) -> (LayoutLibrary, [String]) {
    if let directory = layouts {
        do { return (try LayoutLibrary(directory: directory, only: names), []) } catch { throw UsageError("\(error)") }
    }
    guard let directory = Assets.layoutsDirectory() else {
        throw UsageError("cannot find the layout files: set KEYPANE_DATA_DIR or pass --layouts DIR")
    }
    do {
        return try Configuration.layouts(bundled: directory, user: Configuration.layoutsDirectory(),
                                         only: names)
    } catch { throw UsageError("\(error)") }
}

/// `keypane layouts`: the keyboards Keypane can show.
struct LayoutsCommand {
    static let name = "layouts"
    static let command = Command(name: name, abstract: "List the keyboards and their layers.",
                                 options: [layoutsOption])

    let options: ParsedOptions
    init(_ options: ParsedOptions) { self.options = options }

    func run() {
        let (library, _) = loadLibrary(layouts: options["layouts"])
        for name in library.layouts.keys.sorted() {
            let layout = library.layouts[name]!
            print("\(name)\t\(layout.type.rawValue)\t\(layout.layers.joined(separator: ","))\t\(layout.title)")
        }
    }
}
