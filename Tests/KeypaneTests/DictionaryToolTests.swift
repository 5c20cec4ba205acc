import Foundation
import Testing
import Words

/// keypane-dict, built beside this test bundle, makes dictionaries with a trigram model read from Sphinx's
/// binary format: the fixture's ARPA text is converted with Sphinx's own tool, then read back.
@Suite(.serialized) struct DictionaryToolTests {
    let tool = URL(fileURLWithPath: keypane).deletingLastPathComponent().appendingPathComponent("keypane-dict").path

    func make(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The fixture model in Sphinx's binary format, made by sphinx_lm_convert (sphinxbase-utils).
    func binaryModel(in folder: URL) throws -> String {
        let model = folder.appendingPathComponent("tiny.lm.bin").path
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/sphinx_lm_convert")
        convert.arguments = ["-i", "\(packageRoot)/Tests/Fixtures/tiny-trigrams.arpa", "-o", model]
        convert.standardError = Pipe()
        try convert.run()
        convert.waitUntilExit()
        try #require(convert.terminationStatus == 0)
        return model
    }

    @Test func theTrigramsOfASphinxModelComeIntoTheDictionary() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path
        try "I 50\nwant 30\nto 40\ngo 20\nhome 10\n".write(toFile: words, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--trigrams", try binaryModel(in: folder), output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        func id(_ word: String) throws -> UInt32 { try #require(dictionary.id(of: word)) }
        let start = DictionaryFormat.sentenceStart

        // "i want to" (log10 -0.0458): to, at a cost of 10 × ln 10 × 0.0458 ≈ 1.05 tenths of a nat.
        let afterIWant = try #require(dictionary.continuations(after: try id("i"), try id("want")))
        #expect(afterIWant.next.map(\.word) == [try id("to")])
        #expect(afterIWant.next[0].cost == 1)
        // Its backoff is the bigram "i want"'s, log10 -0.3010: 6.9 tenths.
        #expect(afterIWant.backoff == 7)
        // A sentence's first words come from the bigrams after <s>, likeliest first; the second word's from
        // the trigrams that begin with <s>.
        let first = try #require(dictionary.continuations(after: start, start))
        #expect(first.next.map(\.word) == [try id("i"), try id("go")])
        #expect(dictionary.continuations(after: start, try id("i"))?.next.map(\.word) == [try id("want")])
        #expect(dictionary.continuations(after: try id("to"), try id("go")) == nil)

        // The decoder predicts with them.
        let decoder = Decoder(dictionary: dictionary)
        #expect(decoder.predictions(after: "want", earlier: "I", count: 1) == ["to"])
        #expect(decoder.predictions(after: nil, count: 1) == ["I"])
    }

    /// symspellpy's placeholder count for contractions gives way to the model's weight: "it's" (log10
    /// -1.0) is counted 25, between "want" and "go", as the five words both know scale the model; a
    /// contraction the model lacks is counted as a common word.
    @Test func contractionsAreCountedAsTheModelWeighsThem() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path
        try "I 50\nwant 30\nto 40\ngo 20\nhome 10\nit's 300000\nwho're 300000\n".write(toFile: words, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--trigrams", try binaryModel(in: folder), output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        func cost(_ word: String) throws -> UInt8 { try #require(dictionary.id(of: word).flatMap { dictionary.cost($0) }) }
        #expect(try cost("want") < cost("it's") && cost("it's") < cost("go"))
        #expect(try cost("who're") < cost("i"))
    }

    /// A word the pair list gives no followers takes the model's bigrams ("go": home); one it gives
    /// followers keeps them ("want": go, though the model has "want to").
    @Test func wordsWithoutPairsTakeTheModelsBigrams() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path, pairs = folder.appendingPathComponent("pairs.txt").path
        try "I 50\nwant 30\nto 40\ngo 20\nhome 10\n".write(toFile: words, atomically: true, encoding: .utf8)
        try "want go 5\n".write(toFile: pairs, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, pairs, "--trigrams", try binaryModel(in: folder), output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        func id(_ word: String) throws -> UInt32 { try #require(dictionary.id(of: word)) }
        #expect(try dictionary.followers(of: id("go")).map(\.word) == [id("home")])
        #expect(try dictionary.followers(of: id("want")).map(\.word) == [id("go")])
    }

    @Test func aCasesListGivesWordsTheirCapitals() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path, cases = folder.appendingPathComponent("cases.txt").path
        try "tuesday 30\nmay 40\nnasa 5\n".write(toFile: words, atomically: true, encoding: .utf8)
        try "Tuesday\nNASA\nZanzibar\n".write(toFile: cases, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--cases", cases, output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        let texts = ["tuesday", "may", "nasa"].map { dictionary.id(of: $0).flatMap(dictionary.word) }
        #expect(texts == ["Tuesday", "may", "NASA"])
        // A word the list lacks is not added by the cases list.
        #expect(dictionary.id(of: "zanzibar") == nil)

        try "Tuesday\nNew York\n".write(toFile: cases, atomically: true, encoding: .utf8)
        let bad = try make([words, "--cases", cases, output])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(cases):2: expected one word in its usual case"))
    }

    @Test func extraWordsAreKnownAtTheListsSmallestCount() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path, extra = folder.appendingPathComponent("extra.txt").path
        try "colour 300\ntheatre 200\nthe 9000\n".write(toFile: words, atomically: true, encoding: .utf8)
        try "color\ntheater\nRomney\nthe\n".write(toFile: extra, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--extra", extra, output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        let ids = try ["color", "colour", "romney", "the", "theatre"].map { try #require(dictionary.id(of: $0), "\($0)") }
        #expect(dictionary.word(ids[2]) == "Romney")
        // At the smallest count of the list, theatre's; a word the list has keeps its own.
        #expect(dictionary.cost(ids[0]) == dictionary.cost(ids[4]))
        #expect(try #require(dictionary.cost(ids[0])) > (try #require(dictionary.cost(ids[1]))))
        #expect(try #require(dictionary.cost(ids[3])) < (try #require(dictionary.cost(ids[4]))))

        try "color\nNew York\n".write(toFile: extra, atomically: true, encoding: .utf8)
        let bad = try make([words, "--extra", extra, output])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(extra):2: expected one word in its usual case"))
    }

    @Test func everyExtraListIsRead() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path
        let extra = folder.appendingPathComponent("extra.txt").path, web = folder.appendingPathComponent("web.txt").path
        try "colour 300\nthe 9000\n".write(toFile: words, atomically: true, encoding: .utf8)
        try "color\n".write(toFile: extra, atomically: true, encoding: .utf8)
        try "tradeoff\n".write(toFile: web, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--extra", extra, "--extra", web, output])
        #expect(result.status == 0, "\(result.stderr)")
        let dictionary = try WordDictionary(path: output)
        let ids = try ["color", "tradeoff", "colour"].map { try #require(dictionary.id(of: $0), "\($0)") }
        // Both at the list's smallest count, not one below the other.
        #expect(dictionary.cost(ids[0]) == dictionary.cost(ids[1]))
        #expect(dictionary.cost(ids[1]) == dictionary.cost(ids[2]))
    }

    @Test func aDamagedModelIsNamedAndNothingIsWritten() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = folder.appendingPathComponent("words.txt").path
        try "want 30\nto 40\n".write(toFile: words, atomically: true, encoding: .utf8)
        let model = try binaryModel(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: model))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: model))
        let output = folder.appendingPathComponent("en.dict").path
        let result = try make([words, "--trigrams", model, output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(model) is not a Sphinx trigram model that can be read: cut short"))
        #expect(!FileManager.default.fileExists(atPath: output))

        let text = folder.appendingPathComponent("model.arpa").path
        try "\\data\\\nngram 1=2\n".write(toFile: text, atomically: true, encoding: .utf8)
        let arpa = try make([words, "--trigrams", text, output])
        #expect(arpa.status == 1)
        #expect(arpa.stderr.contains("no \"Trie Language Model\" header"))
    }
}
