#if canImport(Glibc)
import Glibc
#endif
import Words

/// keypane-dict WORDS [PAIRS] [--cases CASES] [--trigrams MODEL] OUTPUT: builds a dictionary file from a
/// word list ("word count" lines, each word in its usual case), when there is one a pair list ("first
/// second count" lines), when named a list of the words' usual forms where the word list has them in lower
/// case (one a line: "Tuesday") and a trigram language model in Sphinx's binary format, then reads it back
/// to check it.
func fail(_ message: String) -> Never {
    let line = Array("keypane-dict: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func readBytes(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "r") else { fail("cannot read \(path): \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

func readText(_ path: String) -> String { String(decoding: readBytes(path), as: UTF8.self) }

/// The files named on the command line, and those named by options (`--cases`, `--trigrams`; `--extra` may
/// be given more than once).
let (arguments, options): ([String], [String: [String]]) = {
    var arguments = CommandLine.arguments
    var options: [String: [String]] = [:]
    for name in ["--cases", "--extra", "--trigrams"] {
        while let flag = arguments.firstIndex(of: name) {
            guard flag + 1 < arguments.count else { fail("\(name) needs a file") }
            options[name, default: []].append(arguments[flag + 1])
            arguments.removeSubrange(flag...(flag + 1))
        }
    }
    return (arguments, options)
}()
guard arguments.count == 3 || arguments.count == 4 else {
    fail("usage: keypane-dict WORDS [PAIRS] [--cases CASES] [--extra WORDS]... [--trigrams MODEL] OUTPUT")
}
let output = arguments.last!
/// The words of a file of one word a line, each in its usual case ("Tuesday", "NASA"); a line of more than
/// one word is named with its number, and nothing is written.
func forms(in path: String) -> [String] {
    var forms: [String] = []
    for (index, line) in readText(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
        guard !line.contains(" ") else { fail("\(path):\(index + 1): expected one word in its usual case") }
        forms.append(String(line))
    }
    return forms
}

/// The dictionary of the counts named on the command line, and how many words it has.
func built() -> (bytes: [UInt8], words: Int) {
    var builder = DictionaryBuilder()
    do {
        try builder.add(lines: readText(arguments[1]), pairs: false, source: arguments[1])
        if arguments.count == 4 { try builder.add(lines: readText(arguments[2]), pairs: true, source: arguments[2]) }
    } catch { fail("\(error)") }
    var model: SphinxModel?
    if let path = options["--trigrams"]?.last {
        do { model = try SphinxModel(bytes: readBytes(path), path: path) } catch { fail("\(error)") }
    }
    // symspellpy's list gives every contraction ("don't", "I'll") the same placeholder count, 300000, far
    // below how often they are written (Google Books' counts split words at apostrophes): they are counted
    // as the language model weighs them ("who's" above "who're"), or, where it lacks them, as a common word.
    let contractions = builder.words.filter { $0.key.contains("'") && $0.value == 300_000 }.map(\.key)
    let weighed = model?.counts(of: contractions, scaledTo: builder.words.filter { $0.value != 300_000 }) ?? [:]
    for word in contractions {
        builder.words[word] = weighed[word] ?? 20_000_000
    }
    // Words the list lacks: known at the list's smallest count.
    let least = builder.words.values.min() ?? 1
    for extra in options["--extra"] ?? [] {
        for form in forms(in: extra) where builder.words[form.lowercased()] == nil {
            builder.words[form.lowercased()] = least
            if form != form.lowercased() { builder.forms[form.lowercased()] = (form, least) }
        }
    }
    if let cases = options["--cases"]?.last {
        for form in forms(in: cases) {
            if let count = builder.words[form.lowercased()] { builder.forms[form.lowercased()] = (form, count) }
        }
    }
    if let model {
        builder.continuations = model.continuations()
        // Words the pair list gives no followers (rarer words, contractions: "heartland", "don't") take the
        // model's bigrams.
        for (first, followers) in model.followers() where builder.pairs[first] == nil && builder.words[first] != nil {
            builder.pairs[first] = followers.filter { builder.words[$0.key] != nil }
        }
    }
    return (builder.build(), builder.words.count)
}
let (bytes, wordCount) = built()
do { _ = try WordDictionary(bytes: bytes, path: output) } catch { fail("the built dictionary does not read back: \(error)") }
let temporary = output + ".new"
// Written 64 KiB at a time: the page cache keeps a new file in pieces (folios) the size of the writes that
// made it, and a mapping maps a whole piece at its first touch. Written at once, the dictionary was cached
// in 2 MiB pieces, and the keyboard's first few lookups made all of its 4.6 MB resident.
let piece = 65_536
guard let out = fopen(temporary, "w"),
      stride(from: 0, to: bytes.count, by: piece).allSatisfy({ start in
          let count = min(piece, bytes.count - start)
          return bytes.withUnsafeBytes { fwrite($0.baseAddress! + start, 1, count, out) } == count
      }),
      fclose(out) == 0,
      rename(temporary, output) == 0 else {
    fail("cannot write \(output): \(String(cString: strerror(errno)))")
}
print("keypane-dict: \(output): \(wordCount) words, \(bytes.count) bytes")
