import Foundation
import Testing

/// keypane-words, built beside this test bundle, answers the benchmark's requests with the keyboard's own
/// engine and the shipped dictionaries.
@Suite struct WordServiceTests {
    let tool = URL(fileURLWithPath: keypane).deletingLastPathComponent().appendingPathComponent("keypane-words").path

    /// The first word of the answer to each request, for a language's keyboard.
    func firstWords(_ language: String, _ requests: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--language", language, "--width", "390", "--height", "300"]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data((requests.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && lines.count == requests.count + 1)
        return try lines.dropFirst().map { line in
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String]]
            return answer?["candidates"]?.first ?? ""
        }
    }

    /// A character no key shows is typed as a person types it, the key that offers it held ("é" on e, "ß"
    /// on s): the word comes out as written, not without the letter ("né" came out "n").
    @Test func lettersOfferedOnAHeldKeyAreTyped() throws {
        func request(_ context: String, _ word: String) -> String {
            let strokes = Array(repeating: "null", count: word.count).joined(separator: ",")
            return #"{"op":"correct","context":"\#(context)","word":"\#(word)","keystrokes":[\#(strokes)]}"#
        }
        #expect(try firstWords("fr", [request("Il est ", "né"), request("le ", "siècle")]) == ["né", "siècle"])
        #expect(try firstWords("de", [request("Viele ", "Grüße"), request("ich ", "weiß")]) == ["Grüße", "weiß"])
        #expect(try firstWords("es", [request("es ", "más")]) == ["más"])
    }

    /// A language without a keyboard of its own is refused with the languages there are, not typed on the
    /// English keys ("pt" is Portuguese's primary tag; its keyboard is pt-BR's).
    @Test func aLanguageWithoutAKeyboardIsRefused() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--language", "pt"]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        process.standardInput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("no keyboard for the language 'pt'") && message.contains("pt-BR"), "\(message)")
        #expect(try firstWords("pt-BR", [#"{"op":"correct","context":"eu ","word":"casq","keystrokes":[null,null,null,null]}"#]) == ["casa"])
    }
}
