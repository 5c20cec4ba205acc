import Foundation
import Testing

/// The keypane program built beside this test bundle.
let keypane: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("keypane").path
}()

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: keypane)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// A new empty folder under the system's temporary folder.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

let allTypes = ["default", "ascii", "numbers-punctuation", "url", "number-pad", "phone-pad", "name-phone-pad",
                "email", "decimal-pad", "social", "web-search", "ascii-number-pad", "desktop"]

@Suite struct RenderCommandTests {
    @Test func helpListsEveryCommand() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("render"))
        #expect(help.stdout.contains("layouts"))
        let renderHelp = try run(["render", "--help"])
        for option in ["--type", "--width", "--height", "--layer", "--return-key", "--theme", "--[no-]globe",
                       "--shift", "--pressed", "--output", "--geometry", "--layouts"] {
            #expect(renderHelp.stdout.contains(option), "\(option)")
        }
        let runHelp = try run(["run", "--help"])
        #expect(runHelp.status == 0)
        for option in ["--type", "--keyboards", "--return-key", "--theme", "--height", "--monitor", "--display",
                       "--layouts", "SIGUSR1", "--[no-]sound", "--volume"] {
            #expect(runHelp.stdout.contains(option), "\(option)")
        }
        // The version from VERSION and the commit it was built from (git's, or a tarball's COMMIT file).
        let version = try String(contentsOfFile: packageRoot + "/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let line = try run(["--version"]).stdout
        #expect(line.hasPrefix("keypane \(version) (commit ") && line.hasSuffix(")\n"), "\(line)")
        let commit = line.split(separator: " ").last.map { $0.dropLast(2) } ?? ""
        #expect(commit.count >= 12 && commit != "unknown", "\(line)")
        #expect(try run(["--manual"]).stdout.contains("\"keypane \(version)\""))
    }

    @Test func writesAPNGAndItsGeometry() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("k.png").path, json = dir.appendingPathComponent("k.json").path
        let result = try run(["render", "--type", "email", "--width", "1920", "--height", "420", "--layer", "letters",
                              "--return-key", "go", "--theme", "dark", "--output", png, "--geometry", json])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(8)
        #expect(header == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        #expect(object["type"] as? String == "email")
        #expect(object["layer"] as? String == "letters")
        #expect(object["layers"] as? [String] == ["letters", "shifted", "numbers", "symbols"])
        #expect(object["width"] as? Int == 1920 && object["height"] as? Int == 420)
        let keys = object["keys"] as! [[String: Any]]
        for key in keys {
            let kinds = ["text", "keysym", "action"].filter { key[$0] != nil }
            #expect(kinds.count == 1, "\(key)")
            for field in ["x", "y", "width", "height"] { #expect(key[field] is Int) }
            #expect(key["label"] is String)
            let x = key["x"] as! Int, w = key["width"] as! Int
            #expect(x >= 0 && x + w <= 1920)
        }
        #expect(keys.contains { $0["text"] as? String == "@" })
        #expect(keys.contains { $0["keysym"] as? String == "Return" && $0["label"] as? String == "go" })
        #expect(keys.contains { $0["action"] as? String == "layer:numbers" })
        #expect(keys.contains { $0["action"] as? String == "globe" })
    }

    @Test(arguments: allTypes)
    func everyTypeRendersInBothClasses(type: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (width, height) in [(320, 216), (3840, 640)] {
            let json = dir.appendingPathComponent("g.json").path
            let result = try run(["render", "--type", type, "--width", "\(width)", "--height", "\(height)",
                                  "--output", dir.appendingPathComponent("k.png").path, "--geometry", json])
            #expect(result.status == 0, "\(type) \(width): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
            #expect(object["widthClass"] as? String == (width >= 768 ? "regular" : "compact"))
        }
    }

    /// --languages draws the first language's keyboard, as the live one shows it, and --geometry describes
    /// it; a language with no keyboard is one line and a failure.
    @Test func renderDrawsTheFirstLanguagesKeyboard() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("g.json").path
        let result = try run(["render", "--languages", "ru,de", "--width", "375", "--height", "260", "--output",
                              dir.appendingPathComponent("k.png").path, "--geometry", json])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        let texts = (object["keys"] as! [[String: Any]]).compactMap { $0["text"] as? String }
        #expect(Array(texts.prefix(3)) == ["й", "ц", "у"], "\(texts)")
        // In Russian alone, the Return key for a search field and the space bar speak Russian.
        let russian = try run(["render", "--languages", "ru", "--return-key", "search", "--width", "375", "--height", "260",
                               "--output", dir.appendingPathComponent("k.png").path, "--geometry", json])
        #expect(russian.status == 0, "\(russian.stderr)")
        let keys = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        let labels = (keys["keys"] as! [[String: Any]]).compactMap { $0["label"] as? String }
        #expect(labels.contains("найти") && labels.contains("пробел") && !labels.contains("search"), "\(labels)")
        let refused = try run(["render", "--languages", "ja", "--width", "375", "--height", "260", "--output",
                               dir.appendingPathComponent("k.png").path])
        #expect(refused.status != 0 && refused.stderr.contains("no keyboard for the language 'ja'"), "\(refused.stderr)")
    }

    @Test func layersAndGlobe() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("g.json").path
        func keys(_ extra: [String]) throws -> [[String: Any]] {
            let result = try run(["render", "--width", "375", "--height", "260", "--output",
                                  dir.appendingPathComponent("k.png").path, "--geometry", json] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
            return object["keys"] as! [[String: Any]]
        }
        #expect(try keys(["--layer", "shifted"]).contains { $0["text"] as? String == "Q" })
        // Shift on draws the shifted letters, as the live keyboard shows them; an asked-for layer still wins.
        #expect(try keys(["--shift", "on"]).contains { $0["text"] as? String == "Q" })
        #expect(try keys(["--shift", "caps-lock", "--layer", "numbers"]).contains { $0["text"] as? String == "7" })
        #expect(try keys(["--layer", "numbers"]).contains { $0["text"] as? String == "7" })
        #expect(try keys(["--layer", "symbols"]).contains { $0["text"] as? String == "€" })
        #expect(try keys([]).contains { $0["action"] as? String == "globe" })
        #expect(try !keys(["--no-globe"]).contains { $0["action"] as? String == "globe" })
    }
}

@Suite struct BadInputTests {
    func expectOneLineFailure(_ arguments: [String], mentioning text: String,
                              environment: [String: String] = [:]) throws {
        let result = try run(arguments, environment: environment)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(text), "\(result.stderr)")
    }

    @Test func commandLineMistakesAreOneLineWithStatus64() throws {
        let cases: [([String], String)] = [
            (["--bogus"], "keypane: unknown option '--bogus' (see keypane --help)"),
            (["frob"], "keypane: unknown command 'frob'"),
            (["render", "--width", "800", "--output", "/tmp/x.png"], "keypane render: missing --height"),
            (["render", "--width", "wide", "--height", "300", "--output", "/tmp/x.png"],
             "--width must be a whole number, not 'wide'"),
            (["render", "--width", "800", "--height", "300", "--output"], "--output needs a value"),
            (["render", "--globe=yes", "--width", "800", "--height", "300", "--output", "/tmp/x.png"],
             "unknown option '--globe'"),
            (["layouts", "extra"], "unexpected argument 'extra'"),
        ]
        for (arguments, message) in cases {
            try expectOneLineFailure(arguments, mentioning: message)
            #expect(try run(arguments).status == 64, "\(arguments)")
        }
    }

    @Test func optionsTakeTheirValueAfterAnEqualsSignToo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("k.json").path
        let result = try run(["render", "--width=375", "--height=260", "--type=email", "--no-globe",
                              "--output=\(dir.path)/k.png", "--geometry", json])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
            as? [String: Any])
        #expect(object["type"] as? String == "email" && object["width"] as? Int == 375)
    }

    /// `--popup` draws what the live keyboard shows over its keys; a key or list it cannot draw is named.
    @Test func popupsDrawAndBadOnesAreNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.png").path
        #expect(try run(["render", "--width", "390", "--height", "260", "--output", plain]).status == 0)
        for popup in ["preview:g", "alternates:e:2", "keyboards", "keyboards:1"] {
            let out = dir.appendingPathComponent("\(popup).png").path
            let result = try run(["render", "--width", "390", "--height", "260", "--popup", popup, "--output", out])
            #expect(result.status == 0, "\(popup): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) != Data(contentsOf: URL(fileURLWithPath: plain)), "\(popup)")
        }
        let base = ["render", "--width", "390", "--height", "260", "--output", "/tmp/x.png", "--popup"]
        try expectOneLineFailure(base + ["alternates:q"], mentioning: "--popup alternates:q: that key has no alternates")
        try expectOneLineFailure(base + ["preview:nokey"], mentioning: "no key labelled 'nokey'")
        try expectOneLineFailure(base + ["keyboards:7"], mentioning: "the list has 2 entries")
        try expectOneLineFailure(base + ["menu"], mentioning: "unknown popup 'menu'")
    }

    @Test func unknownTypeIsOneLine() throws {
        try expectOneLineFailure(["render", "--type", "klingon", "--width", "800", "--height", "300",
                                  "--output", "/tmp/x.png"], mentioning: "unknown keyboard type 'klingon'")
    }

    @Test func impossibleSizesAreOneLine() throws {
        try expectOneLineFailure(["render", "--width", "100", "--height", "300", "--output", "/tmp/x.png"],
                                 mentioning: "width 100 is outside the supported range")
        try expectOneLineFailure(["render", "--width", "800", "--height", "40", "--output", "/tmp/x.png"],
                                 mentioning: "height 40 is outside the supported range")
        try expectOneLineFailure(["render", "--type", "number-pad", "--layer", "symbols", "--width", "800",
                                  "--height", "300", "--output", "/tmp/x.png"], mentioning: "unknown layer 'symbols'")
        try expectOneLineFailure(["render", "--return-key", "launch", "--width", "800", "--height", "300",
                                  "--output", "/tmp/x.png"], mentioning: "unknown return key 'launch'")
    }

    @Test func aBrokenLayoutFileIsNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = packageRoot + "/Assets/layouts"
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir.path + "/" + name)
        }
        let broken = dir.path + "/default.layout"
        var text = try String(contentsOfFile: broken, encoding: .utf8)
        text = text.replacingOccurrences(of: "@dismiss*1.25 !Return*2", with: "@hide*1.25 !Return*2")
        try text.write(toFile: broken, atomically: true, encoding: .utf8)
        try expectOneLineFailure(["render", "--width", "800", "--height", "300", "--output", "/tmp/x.png",
                                  "--layouts", dir.path],
                                 mentioning: "default.layout:12:46: unknown key action '@hide': expected @shift")
        // The same through the data folder the program looks in.
        try FileManager.default.createDirectory(atPath: dir.path + "/data", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: dir.path + "/default.layout", toPath: dir.path + "/x")
        try expectOneLineFailure(["layouts"], mentioning: "cannot open the layout folder",
                                 environment: ["KEYPANE_DATA_DIR": dir.path + "/data"])
    }

    /// A user's layout file that cannot be read, or is wrong, is named and left out, and the bundled one of
    /// its name comes back; the files are read only as they are parsed, so this holds for each.
    @Test func theUsersBrokenLayoutFilesAreNamedAndTheBundledOnesStay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let layouts = dir.path + "/keypane/layouts"
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try Data([0x74, 0x79, 0x70, 0x65, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: layouts + "/email.layout"))
        try "type url\nrow a b ~\n".write(toFile: layouts + "/url.layout", atomically: true, encoding: .utf8)
        let result = try run(["layouts"], environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.contains("keypane: \(layouts)/email.layout: the file is not UTF-8 text; layout left out"))
        #expect(lines.contains { $0.hasPrefix("keypane: \(layouts)/url.layout:2:") && $0.hasSuffix("; layout left out") },
                "\(result.stderr)")
        for type in allTypes { #expect(result.stdout.contains("\(type)\t\(type)\t"), "\(type)") }
    }

    @Test func layoutsListsEveryType() throws {
        let result = try run(["layouts"])
        #expect(result.status == 0)
        for type in allTypes { #expect(result.stdout.contains("\(type)\t\(type)\t"), "\(type)") }
    }
}

@Suite struct SoundFileTests {
    /// The three clicks are the project's own: scripts/make-sounds makes them, and makes them the same
    /// every time, so the committed files are what the script says they are.
    @Test func theScriptRemakesTheClickSoundsByteForByte() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [packageRoot + "/scripts/make-sounds", dir.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in ["key-click.wav", "key-delete.wav", "key-modifier.wav"] {
            let made = try Data(contentsOf: dir.appendingPathComponent(name))
            let committed = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Assets/sounds/" + name))
            #expect(made == committed, "\(name)")
            // 45 ms of 48 kHz 16-bit mono after a 44-byte header: short enough for 20 taps a second.
            #expect(Array(made.prefix(4)) == Array("RIFF".utf8) && made.count == 44 + 2160 * 2, "\(name)")
        }
    }
}

@Suite struct ManualTests {
    /// The commands `keypane --help` lists, and each command's options as its --help lists them.
    static func helpedOptions() throws -> [String: [String]] {
        let help = try run(["--help"]).stdout
        let section = help.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
        let commands = section.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        var options: [String: [String]] = [:]
        for command in commands {
            let text = try run([command, "--help"]).stdout
            options[command] = text.split(separator: "\n").filter { $0.hasPrefix("  --") }
                .map { String($0.dropFirst(2).split(separator: " ")[0]) }.filter { $0 != "--help" }
        }
        return options
    }

    /// The manual page describes every command and option --help does, and renders without a warning.
    @Test func theManualPageCoversEveryCommandAndOption() throws {
        let options = try Self.helpedOptions()
        #expect(Set(options.keys) == ["run", "show", "hide", "toggle", "status", "forget", "replace", "set", "settings", "type", "layouts", "render"])
        #expect(options["set"] == ["--type", "--return-key", "--display"])
        #expect(options["run"]?.contains("--[no-]sound") == true && options["run"]?.contains("--config") == true)

        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("keypane.1")
        let manual = try run(["--manual"])
        #expect(manual.status == 0)
        try manual.stdout.write(to: page, atomically: true, encoding: .utf8)
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-man", "-Tutf8", "-ww", "-rLL=200n", page.path]
        groff.environment = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        groff.standardOutput = out
        groff.standardError = err
        try groff.run()
        let rendered = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0)
        #expect(warnings.isEmpty, "\(warnings)")
        for (command, commandOptions) in options {
            #expect(rendered.contains("   \(command)"), "\(command)")
            for option in commandOptions { #expect(rendered.contains(option), "\(command) \(option)") }
        }
        for section in ["CONFIGURATION", "SIGNALS", "FILES", "EXAMPLES", "EXIT STATUS"] {
            #expect(rendered.contains(section), "\(section)")
        }
    }
}
