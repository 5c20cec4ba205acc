import Foundation
import Testing

/// The user's configuration folder ($XDG_CONFIG_HOME/keypane): the settings file and layouts of their own.
@Suite(.serialized) struct ConfigurationEndToEndTests {
    /// A number pad of the user's own, and a layout file with a mistake in its third line.
    static let mine = """
        type number-pad
        title "Mine"
        layers pad

        layer pad
        row x y z
        row _ 0 !BackSpace
        row @dismiss @globe !Return
        """
    static let broken = """
        type number-pad
        title "Broken"
        layers pad sideways
        """

    static func configure(_ session: XSession, settings: String) throws {
        let folder = session.configDirectory.appendingPathComponent("keypane")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("layouts"),
                                                withIntermediateDirectories: true)
        try settings.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try mine.write(to: folder.appendingPathComponent("layouts/mine.layout"), atomically: true, encoding: .utf8)
        try broken.write(to: folder.appendingPathComponent("layouts/broken.layout"), atomically: true, encoding: .utf8)
    }

    /// The settings take effect, the user's layout is a keyboard like the bundled ones, and every line
    /// that cannot be used is named by file and line while the keyboard starts with the rest.
    @Test func settingsAndLayoutsOfTheUsersOwn() throws {
        let session = try XSession()
        defer { session.stop() }
        try Self.configure(session, settings: """
            # Keypane settings
            keyboards = mine, email
            colour = red
            height = 250
            volume = loud
            floating
            theme = dark   # the dark theme
            sound = off
            """)
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, sound: true)
        #expect(keyboard.frame.height == 250)
        #expect(keyboard.frame.y + 250 == session.height)
        let pad = try keyboard.geometry(type: "mine", layer: nil)
        for text in ["x", "y", "z"] { keyboard.tap(try #require(pad.keys.first { $0.text == text })) }
        #expect(terminal.waitFor(text: "xyz") == "xyz")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        let config = session.configDirectory.appendingPathComponent("keypane/config").path
        let layout = session.configDirectory.appendingPathComponent("keypane/layouts/broken.layout").path
        let lines = messages.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(messages)")
        #expect(lines.contains { $0.hasPrefix("keypane: \(config):3: unknown setting 'colour': expected one of ") })
        #expect(lines.contains("keypane: \(config):5: bad volume 'loud': expected a number from 0 to 100; using the default"))
        #expect(lines.contains("keypane: \(config):6: expected 'name = value', not 'floating'; line ignored"))
        #expect(lines.contains { $0.hasPrefix("keypane: \(layout):3:") && $0.hasSuffix("; layout left out") }, "\(messages)")
    }

    /// A keyboard the settings name that does not exist is said, and the default keyboards (which the
    /// keyboard had not read, reading only those named) are shown instead.
    @Test func anUnknownKeyboardInTheFileBringsTheDefaults() throws {
        let session = try XSession()
        defer { session.stop() }
        try Self.configure(session, settings: "keyboards = klingon\n")
        let keyboard = try LiveKeyboard(session: session)
        let status = ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output)
        #expect(status["type"] == "default" && status["keyboards"] == "default,desktop", "\(status)")
        let (code, messages) = keyboard.terminate()
        #expect(code == 0)
        let config = session.configDirectory.appendingPathComponent("keypane/config").path
        #expect(messages.contains("keypane: \(config):1: unknown keyboard 'klingon' in --keyboards: expected one of "),
                "\(messages)")
    }

    /// The command line overrides the file, and `--config` names another file.
    @Test func theCommandLineOverridesTheFile() throws {
        let session = try XSession()
        defer { session.stop() }
        try Self.configure(session, settings: "keyboards = mine\n")
        let other = session.directory.appendingPathComponent("kiosk.conf")
        try "height = 250\nkeyboards = email\n".write(to: other, atomically: true, encoding: .utf8)
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "300", "--config", other.path])
        #expect(keyboard.frame.height == 300)
        let email = try keyboard.geometry(type: "email", layer: nil)
        keyboard.tap(try #require(email.keys.first { $0.text == "@" }))
        #expect(terminal.waitFor(text: "@") == "@")
        let (_, messages) = keyboard.terminate()
        // The broken layout is still said: the layouts folder is read whichever settings file is used.
        #expect(messages.split(separator: "\n").count == 1, "\(messages)")

        // A settings file named on the command line must be there.
        let missing = try session.run(keypanePath, ["--config", session.directory.appendingPathComponent("none").path])
        #expect(missing.status == 1)
    }
}
