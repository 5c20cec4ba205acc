import Foundation
import KeyboardModel
import TestSupport
import Testing

/// Property tests over mutated layout files and random key labels (make fuzz runs them longer).
@Suite struct FuzzTests {
    static let layoutTexts: [String: [UInt8]] = {
        let folder = packageRoot + "/Assets/layouts"
        var texts: [String: [UInt8]] = [:]
        for name in (try? LayoutLibrary.layoutFiles(in: folder)) ?? [] {
            texts[name] = Array(((try? String(contentsOfFile: folder + "/\(name).layout", encoding: .utf8)) ?? "").utf8)
        }
        return texts
    }()

    /// A layout file with random edits either loads (and then lays out at any width, or says why not) or
    /// is refused with an error that names the file and a line of it; nothing crashes or hangs.
    @Test func mutatedLayoutFilesLoadOrAreNamedWithTheirLine() throws {
        var fuzz = Fuzz()
        let names = Self.layoutTexts.keys.sorted()
        try #require(names.count >= 13)
        let seeds = names.map { Self.layoutTexts[$0]! }
        var loaded = 0, refused = 0
        for _ in 0..<Fuzz.iterations(300) {
            let name = names.randomElement(using: &fuzz)!
            let bytes = fuzz.mutate(Self.layoutTexts[name]!, splicing: seeds)
            let text = String(decoding: bytes, as: UTF8.self)
            var texts = Dictionary(uniqueKeysWithValues: names.map {
                ($0, (text: String(decoding: Self.layoutTexts[$0]!, as: UTF8.self), file: "\($0).layout"))
            })
            texts[name] = (text, "\(name).layout")
            do {
                let library = try LayoutLibrary(texts: texts)
                loaded += 1
                guard let layout = library[name] else { continue }
                for layer in layout.layers {
                    let width = Int.random(in: 320...2560, using: &fuzz)
                    let height = Int.random(in: 100...900, using: &fuzz)
                    _ = try? KeyboardLayoutEngine.layout(layout, layer: layer, width: width, height: height)
                }
            } catch {
                refused += 1
                let message = error.description
                #expect(message.contains(".layout:"), "seed \(fuzz.seed): \(message)")
                // The line is in the file named, which may be one the mutated file inherits from.
                let named = texts.values.first { $0.file == error.location.file }
                #expect(named != nil, "seed \(fuzz.seed): \(message)")
                let lines = named.map { $0.text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).count } ?? 0
                #expect(error.location.line <= lines + 1, "seed \(fuzz.seed): line \(error.location.line) of \(lines) in \(message)")
            }
        }
        print("layout fuzz (seed \(fuzz.seed)): \(loaded) loaded, \(refused) refused with their line")
        #expect(refused > 0, "the mutations should break some files")
    }

    /// Whatever the labels, characters and alternates, the geometry JSON is valid JSON that reads back
    /// as what was laid out.
    @Test func geometryJSONReadsBackWhateverTheLabels() throws {
        var fuzz = Fuzz()
        let layout = bundledLayout(.default)
        for _ in 0..<Fuzz.iterations(300) {
            var geometry = try KeyboardLayoutEngine.layout(layout, width: Int.random(in: 320...1920, using: &fuzz), height: 300)
            for index in geometry.keys.indices {
                geometry.keys[index].label = fuzz.string()
                if case .text = geometry.keys[index].function { geometry.keys[index].function = .text(fuzz.string()) }
                geometry.keys[index].alternates = (0..<Int.random(in: 0...3, using: &fuzz)).map { _ in fuzz.string() }
            }
            let json = geometry.json()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                                      "seed \(fuzz.seed): not JSON: \(json.prefix(300))")
            let keys = try #require(object["keys"] as? [[String: Any]])
            #expect(keys.count == geometry.keys.count)
            for (key, read) in zip(geometry.keys, keys) {
                #expect(read["label"] as? String == key.name, "seed \(fuzz.seed)")
                if case .text(let text) = key.function { #expect(read["text"] as? String == text, "seed \(fuzz.seed)") }
                if !key.alternates.isEmpty { #expect(read["alternates"] as? [String] == key.alternates, "seed \(fuzz.seed)") }
            }
        }
    }
}
