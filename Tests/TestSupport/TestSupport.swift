public import KeyboardModel
import Basics
#if canImport(Glibc)
import Glibc
#endif

/// The package's root folder, found from this file's place in Tests/TestSupport.
public let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The bundled layouts, loaded once.
public let bundled: LayoutLibrary = {
    do { return try LayoutLibrary(directory: packageRoot + "/Assets/layouts") } catch {
        fatalError("bundled layouts do not load: \(error)")
    }
}()

/// The bundled layout of a keyboard type.
public func bundledLayout(_ type: KeyboardType) -> Layout { bundled.layout(for: type)! }

/// Reading recorded audio: where sounds start, and which of several tones a sound is made of.
public enum AudioAnalysis {
    /// The sample indexes where a sound starts: the first sample louder than `threshold` after at least
    /// `gap` samples of quiet.
    public static func onsets(_ samples: [Int16], threshold: Int16 = 300, gap: Int) -> [Int] {
        var onsets: [Int] = []
        var lastLoud = -gap - 1
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > Int(threshold) {
            if index - lastLoud > gap { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }

    /// Which of `frequencies` carries the most energy in `length` samples from `start` (Goertzel's
    /// algorithm): its index.
    public static func strongest(of frequencies: [Double], in samples: [Int16], from start: Int, length: Int,
                                 rate: Double) -> Int {
        let slice = samples[start..<min(samples.count, start + length)]
        let powers = frequencies.map { frequency -> Double in
            let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
            var previous = 0.0, beforePrevious = 0.0
            for sample in slice {
                let current = Double(sample) + coefficient * previous - beforePrevious
                beforePrevious = previous
                previous = current
            }
            return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        }
        return powers.indices.max { powers[$0] < powers[$1] }!
    }
}

/// Property tests over mutated inputs: a seeded generator and the edits a fuzzer makes. `make test` runs
/// each property a few hundred times; `make fuzz` runs them for a fixed time with
/// KEYPANE_FUZZ_ITERATIONS, and KEYPANE_FUZZ_SEED repeats a run.
public struct Fuzz: RandomNumberGenerator {
    private var state: UInt64
    public let seed: UInt64

    /// Seeded from KEYPANE_FUZZ_SEED, else the clock (`seed` says which, to repeat a run).
    public init() {
        self.init(seed: getenv("KEYPANE_FUZZ_SEED").flatMap { UInt64(String(cString: $0)) } ?? UInt64(time(nil)))
    }

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// How many inputs each property is tried on: KEYPANE_FUZZ_ITERATIONS, else `standard`.
    public static func iterations(_ standard: Int) -> Int {
        getenv("KEYPANE_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? standard
    }

    /// SplitMix64.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Bytes that mean something to the formats read here.
    static let tokens: [[UInt8]] = ["\n", "=", "#", "@", ":", "|", "\"", "\\", " ", "\t", "[", "]", "{", "}", ",",
                                    "*", "0", "-1", "99999999999999999999", "inherit", "layer", "row", "\u{0}",
                                    "\u{FEFF}", "é", "€", "👋🏽", "\r\n", "\u{7f}"].map { Array($0.utf8) }

    /// One to eight random edits of `input`: bits flipped, bytes set, tokens inserted, ranges deleted or
    /// repeated, a piece of another seed spliced in; sometimes random bytes alone.
    public mutating func mutate(_ input: [UInt8], splicing others: [[UInt8]] = []) -> [UInt8] {
        if Int.random(in: 0..<50, using: &self) == 0 {
            return (0..<Int.random(in: 0..<200, using: &self)).map { _ in UInt8.random(in: 0...255, using: &self) }
        }
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &self) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<7, using: &self) {
            case 0 where !bytes.isEmpty: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &self)
            case 1 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &self)
            case 2: bytes.insert(contentsOf: Self.tokens.randomElement(using: &self)!, at: at)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &self)))
            case 4 where !bytes.isEmpty:
                let piece = Array(bytes[at..<min(bytes.count, at + Int.random(in: 1...64, using: &self))])
                bytes.insert(contentsOf: piece, at: Int.random(in: 0...bytes.count, using: &self))
            case 5 where !others.isEmpty:
                let other = others.randomElement(using: &self)!
                guard !other.isEmpty else { break }
                let from = Int.random(in: 0..<other.count, using: &self)
                bytes.insert(contentsOf: other[from..<min(other.count, from + Int.random(in: 1...200, using: &self))], at: at)
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &self), at: min(at, bytes.count))
            }
        }
        return bytes
    }

    /// A string of random scalars, control characters, quotes and backslashes among them.
    public mutating func string(maxLength: Int = 12) -> String {
        let pool: [ClosedRange<UInt32>] = [0...0x1f, 0x20...0x7e, 0x80...0x2ff, 0x400...0x4ff, 0x2000...0x206f,
                                           0xe000...0xf8ff, 0x1f300...0x1faff, 0xfff0...0xffff]
        var text = ""
        for _ in 0..<Int.random(in: 0...maxLength, using: &self) {
            let range = pool.randomElement(using: &self)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &self)) { text.unicodeScalars.append(scalar) }
        }
        return text
    }
}

/// The bundled languages' keyboards, other than US English's (the default keyboard).
public let languageLayouts = ["en-gb", "de", "fr", "es", "it", "pt-br", "nl", "sv", "da", "nb", "pl", "ru", "uk", "el", "tr"]

/// A few lines in emoji-test.txt's form: tones after their emoji, a mixed-tone pair, an emoji whose toned
/// forms drop its variation selector, a ZWJ family, a flag, a keycap and a group the keyboard does not show.
public let emojiFixture = """
# group: Smileys & Emotion
# subgroup: face-smiling
1F600                                                  ; fully-qualified     # 😀 E1.0 grinning face
263A FE0F                                              ; fully-qualified     # ☺️ E0.6 smiling face
263A                                                   ; unqualified         # ☺ E0.6 smiling face
# group: People & Body
1F44B                                                  ; fully-qualified     # 👋 E0.6 waving hand
1F44B 1F3FB                                            ; fully-qualified     # 👋🏻 E1.0 waving hand: light skin tone
1F44B 1F3FD                                            ; fully-qualified     # 👋🏽 E1.0 waving hand: medium skin tone
261D FE0F                                              ; fully-qualified     # ☝️ E0.6 index pointing up
261D 1F3FF                                             ; fully-qualified     # ☝🏿 E1.0 index pointing up: dark skin tone
1F9D1 200D 1F91D 200D 1F9D1                            ; fully-qualified     # 🧑‍🤝‍🧑 E12.0 people holding hands
1F9D1 1F3FB 200D 1F91D 200D 1F9D1 1F3FB                ; fully-qualified     # 🧑🏻‍🤝‍🧑🏻 E12.0 people holding hands: light skin tone
1F9D1 1F3FB 200D 1F91D 200D 1F9D1 1F3FC                ; fully-qualified     # 🧑🏻‍🤝‍🧑🏼 E12.1 people holding hands: light skin tone, medium-light skin tone
1F468 200D 1F469 200D 1F467                            ; fully-qualified     # 👨‍👩‍👧 E2.0 family: man, woman, girl
# group: Component
1F3FB                                                  ; component           # 🏻 E1.0 light skin tone
# group: Symbols
0023 FE0F 20E3                                         ; fully-qualified     # #️⃣ E0.6 keycap: #
# group: Flags
1F1E9 1F1EA                                            ; fully-qualified     # 🇩🇪 E0.6 flag: Germany
1F1EC 1F1F7                                            ; fully-qualified     # 🇬🇷 E0.6 flag: Greece
"""

public func fixtureCatalog() throws -> EmojiCatalog { try EmojiCatalog(text: emojiFixture, file: "emoji-test.txt") }

/// The settings panel's words in each shipped language (Assets/panel/TAG.po), by tag.
public let bundledPanelWords: [String: PanelWords] = {
    let folder = packageRoot + "/Assets/panel"
    var words: [String: PanelWords] = [:]
    for tag in Files.names(in: folder, ending: ".po") ?? [] {
        let path = folder + "/" + tag + ".po"
        do {
            let text = String(decoding: try Files.readBytes(path), as: UTF8.self)
            words[tag] = PanelWords(language: tag, translations: try PanelWords.parse(text, file: path))
        } catch {
            fatalError("\(error)")
        }
    }
    return words
}()
