import ArgumentParser
import KeyboardModel
import Render

/// `keypane render`: draws a keyboard to a PNG file, with no X server.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a keyboard to a PNG file, and optionally write its key geometry as JSON.")

    @Option(help: ArgumentHelp("The keyboard type (\(KeyboardType.allNames)), or the name of a layout file.",
                               valueName: "type"))
    var type = "default"

    @Option(help: "Width in pixels (\(KeyboardLayoutEngine.widths.lowerBound)-\(KeyboardLayoutEngine.widths.upperBound)).")
    var width: Int

    @Option(help: "Height in pixels.")
    var height: Int

    @Option(help: "The layer to show (letters, shifted, numbers, symbols; pads have 'pad'); default: the first.")
    var layer: String?

    @Option(name: .customLong("return-key"), help: "The Return key (\(ReturnKeyType.allNames)).")
    var returnKey = "default"

    @Option(help: "The colour theme: light or dark.")
    var theme = "light"

    @Flag(inversion: .prefixedNo, help: "Show the Globe key, as when more than one keyboard is enabled.")
    var globe = true

    @Option(help: ArgumentHelp("Show the shift key latched: off, on or caps-lock.", valueName: "state"))
    var shift = "off"

    @Option(help: ArgumentHelp("Show the keys with these labels pressed (comma separated).", valueName: "labels"))
    var pressed: String?

    @Option(help: "The PNG file to write.")
    var output: String

    @Option(help: "A JSON file to write the key geometry to.")
    var geometry: String?

    @OptionGroup var layouts: LayoutOptionGroup

    func run() throws {
        let fail = { (message: String) -> Never in Keypane_fail(message) }
        let library = try layouts.library()
        guard let layout = library[type] else {
            fail("unknown keyboard type '\(type)': expected one of \(library.layouts.keys.sorted().joined(separator: ", "))")
        }
        guard let returnKey = ReturnKeyType(rawValue: returnKey) else {
            fail("unknown return key '\(self.returnKey)': expected one of \(ReturnKeyType.allNames)")
        }
        guard let theme = Theme.named(theme) else { fail("unknown theme '\(self.theme)': expected light or dark") }
        let shiftState: KeyboardState.Shift
        switch shift {
        case "off": shiftState = .off
        case "on": shiftState = .on
        case "caps-lock": shiftState = .capsLock
        default: fail("unknown shift state '\(shift)': expected off, on or caps-lock")
        }
        let options = LayoutOptions(returnKey: returnKey, showsGlobe: globe)
        let placed: KeyboardGeometry
        do {
            placed = try KeyboardLayoutEngine.layout(layout, layer: layer, width: width, height: height, options: options)
        } catch { fail("\(error)") }

        var state = KeyboardState(shift: shiftState)
        for label in pressed?.split(separator: ",").map(String.init) ?? [] {
            guard let index = placed.keys.firstIndex(where: { $0.name == label }) else {
                fail("no key labelled '\(label)' on this keyboard")
            }
            state.pressed.insert(index)
        }
        do {
            let surface = try Surface(width: width, height: height)
            try KeyboardRenderer(theme: theme).draw(placed, state: state, on: surface)
            try surface.writePNG(to: output)
            if let geometry { try writeFile(geometry, placed.json()) }
        } catch { fail("\(error)") }
    }
}

private func Keypane_fail(_ message: String) -> Never { fail(message, command: "keypane render") }
