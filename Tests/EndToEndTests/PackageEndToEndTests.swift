import Foundation
import Testing
import TestSupport

/// The Debian package, made by packaging/build-deb from the release program (`make test` builds it, as
/// `make deb` does), looked into, installed into a dpkg root of its own, used there as a kiosk uses it, and
/// purged.
@Suite(.serialized) struct PackageEndToEndTests {
    static let release = packageRoot + "/.build/release/keypane"

    /// Runs a program to its end; its standard output, and its standard error.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try launch(process)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test func thePackageInstallsServesAKioskAndPurgesCleanly() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.release) else {
            Issue.record("no release program at \(Self.release): make test builds it (swift build -c release --static-swift-stdlib)")
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("keypane-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        // Build.
        let built = try Self.run(packageRoot + "/packaging/build-deb", [Self.release, work.appendingPathComponent("out").path])
        #expect(built.status == 0, "\(built.errors)")
        let deb = built.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try String(contentsOfFile: packageRoot + "/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/keypane_\(version)_\(try Self.run("/usr/bin/dpkg", ["--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)).deb"))

        // What a distribution checks: lintian reports no error and no warning (it says nothing), and the
        // desktop entries and AppStream metadata validate.
        let lint = try Self.run("/usr/bin/lintian", [deb])
        #expect(lint.status == 0 && lint.output.isEmpty, "lintian: \(lint.output)\(lint.errors)")
        for entry in ["keypane.desktop", "keypane-autostart.desktop"] {
            let valid = try Self.run("/usr/bin/desktop-file-validate", [packageRoot + "/packaging/" + entry])
            #expect(valid.status == 0 && valid.output.isEmpty, "\(entry): \(valid.output)\(valid.errors)")
        }

        // Look inside: the fields, every file, and what the files say.
        let fields = try Self.run("/usr/bin/dpkg-deb", ["-f", deb, "Package", "Version", "Depends", "Recommends"]).output
        #expect(fields.contains("Package: keypane\n") && fields.contains("Version: \(version)\n"))
        let depends = fields.split(separator: "\n").first { $0.hasPrefix("Depends: ") }.map { $0.dropFirst(9) } ?? ""
        let dependencies = depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for library in ["libc6", "libx11-6", "libxtst6", "libxi6", "libxrandr2", "libcairo2", "libpango-1.0-0",
                        "libcanberra0", "libatspi2.0-0", "libdbus-1-3", "fonts-dejavu-core"] {
            #expect(dependencies.contains(library), "Depends: \(depends)")
        }
        // Nothing of Swift's own: the program carries its standard library.
        #expect(!depends.contains("swift"))
        #expect(fields.contains("Recommends: libcanberra-pulse, at-spi2-core"))
        let listing = try Self.run("/usr/bin/dpkg-deb", ["-c", deb]).output
        var files = ["usr/bin/keypane", "usr/share/applications/keypane.desktop", "etc/xdg/autostart/keypane.desktop",
                     "usr/share/man/man1/keypane.1.gz", "usr/share/metainfo/io.github.keypane.Keypane.metainfo.xml",
                     "usr/share/doc/keypane/copyright", "usr/share/doc/keypane/changelog.gz"]
        // A dictionary for every language whose word counts are in the sources.
        files += try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Dictionaries")
            .filter { FileManager.default.fileExists(atPath: packageRoot + "/Dictionaries/\($0)/words.txt") }
            .map { "usr/share/keypane/dictionaries/\($0).dict" }
        files += ["key-click", "key-delete", "key-modifier"].map { "usr/share/keypane/sounds/\($0).wav" }
        files += try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Assets/layouts")
            .filter { $0.hasSuffix(".layout") }.map { "usr/share/keypane/layouts/" + $0 }
        files += try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Assets/panel")
            .filter { $0.hasSuffix(".po") }.map { "usr/share/keypane/panel/" + $0 }
        let packaged = listing.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("d"), let path = line.split(separator: " ").last else { return nil }
            return String(path.dropFirst(2))
        }
        #expect(Set(packaged) == Set(files), "\(packaged)")
        #expect(listing.split(separator: "\n").allSatisfy { $0.contains(" root/root ") })

        let root = work.appendingPathComponent("root")
        let admin = root.appendingPathComponent("var/lib/dpkg")
        for folder in ["info", "updates"] {
            try FileManager.default.createDirectory(at: admin.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: admin.appendingPathComponent("status").path, contents: nil)
        // The libraries are this system's, not the empty root's: their absence there is forced past.
        let dpkg = ["--root=\(root.path)", "--force-depends", "--force-script-chrootless"]
        let installed = try Self.run("/usr/bin/dpkg", dpkg + ["-i", deb])
        #expect(installed.status == 0, "\(installed.errors)")
        let autostart = try String(contentsOf: root.appendingPathComponent("etc/xdg/autostart/keypane.desktop"), encoding: .utf8)
        #expect(autostart.contains("\nExec=keypane\n") && autostart.contains("\nHidden=true\n"))
        let launcher = try String(contentsOf: root.appendingPathComponent("usr/share/applications/keypane.desktop"), encoding: .utf8)
        #expect(launcher.hasPrefix("[Desktop Entry]\n") && launcher.contains("\nExec=keypane\n"))
        let metainfo = root.appendingPathComponent("usr/share/metainfo/io.github.keypane.Keypane.metainfo.xml").path
        let checked = try Self.run("/usr/bin/python3", ["-c", """
            import sys, xml.etree.ElementTree as tree
            c = tree.parse(sys.argv[1]).getroot()
            print(c.get("type"), c.findtext("id"), c.findtext("launchable"), c.findtext("provides/binary"),
                  c.findtext("project_license"), [r.get("version") for r in c.findall("releases/release")][0])
            """, metainfo])
        #expect(checked.output == "desktop-application io.github.keypane.Keypane keypane.desktop keypane Apache-2.0 \(version)\n",
                "\(checked.errors)")
        let appstream = try Self.run("/usr/bin/appstreamcli", ["validate", "--no-net", "--explain", metainfo])
        #expect(appstream.status == 0, "\(appstream.output)\(appstream.errors)")
        // The changelog is CHANGES.md's, newest version first.
        let changelog = try Self.run("/bin/sh", ["-c", "gzip -dc '\(root.path)/usr/share/doc/keypane/changelog.gz' | head -1"])
        #expect(changelog.output == "keypane (\(version)) unstable; urgency=medium\n")
        let manual = try Self.run("/bin/sh", ["-c", "gzip -dc '\(root.path)/usr/share/man/man1/keypane.1.gz' | head -1"])
        #expect(manual.output.hasPrefix(".TH KEYPANE 1") && manual.output.contains("keypane \(version)"))

        // The installed program finds its layouts and sounds beside it, with no help from the environment.
        let program = root.appendingPathComponent("usr/bin/keypane").path
        let layouts = try Self.run(program, ["layouts"])
        #expect(layouts.status == 0 && layouts.output.contains("email\temail\t"), "\(layouts.errors)")
        try kiosk(program)

        // Purged, it leaves nothing behind but dpkg's own records.
        let purged = try Self.run("/usr/bin/dpkg", dpkg + ["--purge", "keypane"])
        #expect(purged.status == 0, "\(purged.errors)")
        let left = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
            .filter { !$0.hasPrefix("var") } ?? []
        #expect(left.isEmpty, "\(left)")
    }

    /// The kiosk's script, with the installed program: start the keyboard, switch to the email keyboard
    /// with a Go key, type an address into the field from the command line, press Go on the keyboard, hide
    /// it. The input click plays from the installed sounds.
    func kiosk(_ program: String) throws {
        let sound = try SoundServer()
        defer { sound.stop() }
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, environment: sound.environment, sound: true, program: program)
        func keypane(_ arguments: [String]) throws -> Int32 {
            let result = try session.run(program, arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            return result.status
        }
        _ = try keypane(["set", "--type", "email", "--return-key", "go"])
        _ = try keypane(["type", "someone@example.com"])
        #expect(terminal.waitFor(text: "someone@example.com") == "someone@example.com")
        keyboard.extra = ["--return-key", "go"]
        let go = try #require(try keyboard.geometry(type: "email", layer: nil).keys.first { $0.label == "go" })
        let samples = try sound.record { keyboard.tap(go) }
        #expect(ClickSound.heard(in: samples) == [.modifier])
        #expect(terminal.waitFor(text: "someone@example.com\r") == "someone@example.com\r")
        _ = try keypane(["hide"])
        #expect(waitUntil { session.window(classNamed: "keypane") == nil })
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty)
    }
}
