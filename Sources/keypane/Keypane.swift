import ArgumentParser
import KeyboardModel

/// The `keypane` command.
@main
struct Keypane: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keypane",
        abstract: "An on-screen keyboard for X11, after the iOS system keyboard.",
        discussion: """
            Keyboard types: \(KeyboardType.allNames).
            Return keys: \(ReturnKeyType.allNames).
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, RenderCommand.self, LayoutsCommand.self],
        defaultSubcommand: RunCommand.self)
}

/// Options every command that reads layouts shares.
struct LayoutOptionGroup: ParsableArguments {
    @Option(name: .customLong("layouts"), help: ArgumentHelp(
        "The folder of layout files (default: the installed Assets/layouts).", valueName: "dir"))
    var directory: String?

    /// The layouts, or a one-line message and exit status 1.
    func library() throws -> LayoutLibrary {
        guard let directory = directory ?? Assets.layoutsDirectory() else {
            fail("cannot find the layout files: set KEYPANE_DATA_DIR or pass --layouts DIR")
        }
        do { return try LayoutLibrary(directory: directory) } catch { fail("\(error)") }
    }
}

/// `keypane layouts`: the keyboards Keypane can show.
struct LayoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layouts", abstract: "List the keyboards and their layers.")

    @OptionGroup var layouts: LayoutOptionGroup

    func run() throws {
        let library = try layouts.library()
        for name in library.layouts.keys.sorted() {
            let layout = library.layouts[name]!
            print("\(name)\t\(layout.type.rawValue)\t\(layout.layers.joined(separator: ","))\t\(layout.title)")
        }
    }
}
