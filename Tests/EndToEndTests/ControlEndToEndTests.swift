import Foundation
import Testing
import TestSupport

/// A running keyboard driven from the command line, as a kiosk script drives it: `keypane show`, `hide`,
/// `toggle`, `status`, `set` and `type` over the control socket, signals, and a second start.
@Suite(.serialized) struct ControlEndToEndTests {
    static func keypane(_ session: XSession, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try session.run(keypanePath, arguments)
    }

    static func status(_ session: XSession) throws -> [String: String] {
        let result = try keypane(session, ["status"])
        #expect(result.status == 0, "\(result.errors)")
        return fields(result.output)
    }

    /// The `name: value` lines of `keypane status`.
    static func fields(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    static func visible(_ session: XSession) -> Bool { session.window(classNamed: "keypane") != nil }

    /// The kiosk's day: switch to the email keyboard with a Go key, type into the field, from the keys and
    /// from the command line, and hide the keyboard.
    @Test func aKioskScriptDrivesTheKeyboard() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        // (The bar's words, whatever they are, are the suggestion tests' business.)
        #expect(try Self.status(session).filter { !$0.key.hasPrefix("suggestions") }
                == ["visible": "yes", "type": "default", "layer": "letters", "shift": "off",
                    "return-key": "default", "keyboards": "default", "placement": "docked",
                    "secure": "no", "remembered": "0", "auto-show": "never", "theme": "light", "sound": "off"])

        #expect(try Self.keypane(session, ["set", "--type", "email", "--return-key", "go"]).status == 0)
        let status = try Self.status(session)
        #expect(status["type"] == "email" && status["return-key"] == "go" && status["keyboards"] == "default,email")
        // What is on screen is the email keyboard with its Go key: tapping types what those keys show.
        keyboard.extra = ["--return-key", "go"]
        let email = try keyboard.geometry(type: "email", layer: nil)
        let go = try #require(email.keys.first { $0.keysym == "Return" })
        #expect(go.label == "go")
        keyboard.tap(try #require(email.keys.first { $0.text == "@" }))
        #expect(terminal.waitFor(text: "@") == "@")
        keyboard.tap(go)
        #expect(terminal.waitFor(text: "@\r") == "@\r")

        let typed = try Self.keypane(session, ["type", "--", "--héllo wörld €"])
        #expect(typed.status == 0, "\(typed.errors)")
        #expect(terminal.waitFor(text: "@\r--héllo wörld €") == "@\r--héllo wörld €")

        #expect(try Self.keypane(session, ["hide"]).status == 0)
        #expect(waitUntil { !Self.visible(session) })
        #expect(try Self.status(session)["visible"] == "no")
        #expect(try Self.keypane(session, ["toggle"]).status == 0)
        #expect(waitUntil { Self.visible(session) })
        #expect(try Self.keypane(session, ["toggle"]).status == 0)
        #expect(waitUntil { !Self.visible(session) })
        #expect(try Self.keypane(session, ["show"]).status == 0)
        #expect(waitUntil { Self.visible(session) })

        // Another language's keyboard, not enabled and so not read at start, is read when asked for.
        #expect(try Self.keypane(session, ["set", "--type", "de"]).status == 0)
        #expect(try Self.status(session)["type"] == "de")
        let german = try keyboard.geometry(type: "de", layer: nil)
        keyboard.tap(try #require(german.keys.first { $0.text == "ü" }))
        #expect(terminal.waitFor(text: "@\r--héllo wörld €ü") == "@\r--héllo wörld €ü")

        // What the keyboard cannot do is said, and it goes on.
        let unknown = try Self.keypane(session, ["set", "--type", "klingon"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.hasPrefix("keypane set: unknown keyboard type 'klingon': expected one of "))
        let badKey = try Self.keypane(session, ["set", "--return-key", "launch"])
        #expect(badKey.errors.hasPrefix("keypane set: unknown return key 'launch'"))
        #expect(try Self.status(session)["type"] == "de")
        let (exitStatus, messages) = keyboard.terminate()
        #expect(exitStatus == 0)
        #expect(messages.isEmpty)

        // With the keyboard gone, so is its socket, and a command says nobody answers.
        #expect(!FileManager.default.fileExists(atPath: session.runtimeDirectory.appendingPathComponent("keypane-\(session.display.dropFirst()).socket").path))
        let none = try Self.keypane(session, ["show"])
        #expect(none.status == 1)
        #expect(none.errors.hasPrefix("keypane show: no keyboard is running"), "\(none.errors)")
    }

    /// A keyboard type's file is read when the type is first asked for: a mistake in it is said then, with
    /// its file and line, the answer says the keyboard cannot be read, and the keyboard goes on with the
    /// others, which still come when asked for.
    @Test func aBrokenKeyboardTypeIsSaidWhenAskedForAndTheOthersStillCome() throws {
        let session = try XSession()
        defer { session.stop() }
        let folder = session.directory.appendingPathComponent("layouts")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: packageRoot + "/Assets/layouts"), to: folder)
        let url = folder.appendingPathComponent("url.layout")
        let text = try String(contentsOf: url, encoding: .utf8)
        try ("row q w e\n" + text).write(to: url, atomically: true, encoding: .utf8)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--layouts", folder.path])
        let broken = try Self.keypane(session, ["set", "--type", "url"])
        #expect(broken.status == 1)
        #expect(broken.errors == "keypane set: the url keyboard cannot be read: the keyboard's messages say why\n",
                "\(broken.errors)")
        #expect(try Self.keypane(session, ["set", "--type", "email"]).status == 0)
        #expect(try Self.status(session)["type"] == "email")
        let (exitStatus, messages) = keyboard.terminate()
        #expect(exitStatus == 0)
        #expect(messages.contains("keypane: \(url.path):1:1: "), "\(messages)")
        #expect(messages.contains("; the url keyboard is left out"), "\(messages)")
    }

    /// SIGUSR1 hides and SIGUSR2 shows; a second start shows the running keyboard instead of starting
    /// another.
    @Test func signalsAndASecondStart() throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        kill(keyboard.process.processIdentifier, SIGUSR1)
        #expect(waitUntil { !Self.visible(session) })
        kill(keyboard.process.processIdentifier, SIGUSR2)
        #expect(waitUntil { Self.visible(session) })
        #expect(try Self.keypane(session, ["hide"]).status == 0)
        #expect(waitUntil { !Self.visible(session) })
        let second = try Self.keypane(session, ["--no-sound"])
        #expect(second.status == 0)
        #expect(waitUntil { Self.visible(session) })
        #expect(keyboard.process.isRunning)
        #expect(session.allWindows().filter { session.windowClass($0)?.0 == "keypane" }.count == 1)
    }

    /// The socket is the user's alone (mode 0600, and a connection from another user is refused), and
    /// requests that are too long or malformed get an error answer while the keyboard carries on.
    @Test func theSocketRefusesOthersAndBadRequests() throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        let socket = session.runtimeDirectory.appendingPathComponent("keypane-\(session.display.dropFirst()).socket").path
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        /// Sends raw bytes (Python's escapes) as a user, and returns the answer.
        func send(_ bytes: String, as user: Int? = nil) throws -> String {
            let script = """
                import socket
                s = socket.socket(socket.AF_UNIX)
                s.connect(\(String(reflecting: socket)))
                try:
                    s.sendall(\(bytes))
                    s.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                print(s.recv(4096).decode(), end="")
                """
            let command = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups",
                                      "/usr/bin/python3", "-c", script] } ?? ["/usr/bin/python3", "-c", script]
            let result = try session.run(command[0], Array(command.dropFirst()))
            #expect(result.status == 0, "\(result.errors)")
            return result.output
        }
        #expect(try send("b'status'").hasPrefix("ok\nvisible: yes\n"))
        #expect(try send("b'x' * 100000") == "error: request longer than 65536 bytes\n")
        #expect(try send("b'\\xff\\xfe'") == "error: request is not UTF-8 text\n")
        #expect(try send("b'reboot'").hasPrefix("error: unknown command 'reboot'"))
        #expect(try send("b'set\\ncolour=red'").hasPrefix("error: 'set' takes type and return-key"))
        #expect(try send("b'type\\n'") == "error: 'type' needs text\n")
        #expect(try send("b''").hasPrefix("error: unknown command ''"))

        // Another user, let through the file system on purpose, is refused by the keyboard itself.
        if getuid() == 0 {
            chmod(session.runtimeDirectory.path, 0o755)
            chmod(socket, 0o666)
            #expect(try send("b'hide'", as: 65534) == "error: refused: the keyboard takes commands from its own user only\n")
            #expect(Self.visible(session))
        }
        #expect(try Self.status(session)["visible"] == "yes")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty)
    }
    /// 100 clients at once that connect and never finish (silent, a partial request, 60 KB of junk with no
    /// end): requests from the keyboard's user are still answered while they hang on, the keyboard still
    /// types, its memory stays within bounds (every stalled client's bytes are capped), and once they are
    /// gone nothing of them is left.
    @Test func aFloodOfStalledClientsDoesNotStopTheAnswers() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        let socket = session.runtimeDirectory.appendingPathComponent("keypane-\(session.display.dropFirst()).socket").path
        let pid = keyboard.process.processIdentifier
        let script = """
            import socket, sys, time
            path, pid = sys.argv[1], sys.argv[2]
            def rss():
                for line in open(f"/proc/{pid}/status"):
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
            def ask(request):
                s = socket.socket(socket.AF_UNIX)
                s.settimeout(5)
                try:
                    s.connect(path)
                    s.sendall(request)
                    s.shutdown(socket.SHUT_WR)
                    answer = b""
                    while True:
                        part = s.recv(4096)
                        if not part:
                            return answer.decode(errors="replace")
                        answer += part
                except OSError as error:
                    return f"failed: {error}"
                finally:
                    s.close()
            before = rss()
            flood = []
            for i in range(100):
                s = socket.socket(socket.AF_UNIX)
                s.setblocking(False)
                try:
                    s.connect(path)
                except BlockingIOError:
                    pass
                except OSError as error:
                    print(f"connect {i}: {error}")
                    continue
                try:
                    if i % 5 == 1:
                        s.send(b"sta")
                    elif i % 5 == 2:
                        s.send(b"x" * 60000)
                except OSError:
                    pass
                flood.append(s)
            answers = [ask(b"status") for _ in range(5)]
            during = rss()
            for s in flood:
                s.close()
            time.sleep(0.5)
            answers.append(ask(b"status"))
            print(f"rss {before} {during} {rss()}")
            for answer in answers:
                print("answer " + answer.split("\\n")[0])
            """
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let flood = try session.run("/usr/bin/python3", ["-c", script, socket, "\(pid)"])
        #expect(flood.status == 0, "\(flood.errors)")
        let lines = flood.output.split(separator: "\n")
        #expect(lines.filter { $0 == "answer ok" }.count == 6, "\(flood.output)")
        let rss = try #require(lines.first { $0.hasPrefix("rss ") }).split(separator: " ").dropFirst().compactMap { Int($0) }
        #expect(rss.count == 3 && rss[1] - rss[0] < 2048, "RSS in kB before, during, after: \(rss)")
        keyboard.tap(letters.key(label: "k")!)
        expectArrived(terminal, "k", "after the flood")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty, "\(messages)")
    }
}
