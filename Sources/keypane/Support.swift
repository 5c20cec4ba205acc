internal import Basics
#if canImport(Glibc)
import Glibc
#endif
import KeyboardModel

/// Prints a one-line message to standard error and exits, with status 1 unless told otherwise.
func fail(_ message: String, command: String = "keypane", status: Int32 = 1) -> Never {
    let line = Array("\(command): \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

/// Finds the files Keypane ships: layouts and sounds.
enum Assets {
    /// The data folder: $KEYPANE_DATA_DIR, else `../share/keypane` beside the program, else the `Assets`
    /// folder of the source tree the program was built in (found from the program's path).
    static func dataDirectory() -> String? {
        if let env = getenv("KEYPANE_DATA_DIR") { return String(cString: env) }
        guard let exe = executablePath() else { return nil }
        var dir = parent(exe)
        let installed = dir + "/../share/keypane"
        if isDirectory(installed + "/layouts") { return installed }
        while dir != "/" && !dir.isEmpty {
            if isDirectory(dir + "/Assets/layouts") { return dir + "/Assets" }
            dir = parent(dir)
        }
        return nil
    }

    static func layoutsDirectory() -> String? { dataDirectory().map { $0 + "/layouts" } }

    /// The dictionaries in the data folder, by language: `dictionaries/de.dict` is German's.
    static func dictionaries() -> [String: String] {
        guard let folder = dataDirectory().map({ $0 + "/dictionaries" }),
              let languages = Files.names(in: folder, ending: ".dict") else { return [:] }
        var found: [String: String] = [:]
        for language in languages where language.allSatisfy({ $0.isASCII && $0.isLowercase }) {
            found[language] = folder + "/" + language + ".dict"
        }
        return found
    }

    /// The settings panel's words in the language of the locale (or, with none, of the first keyboard):
    /// `panel/TAG.po` in the data folder. A file that cannot be read or parsed is said, and the panel
    /// speaks English.
    static func panelWords(keyboards: [String]) -> PanelWords {
        guard let folder = dataDirectory().map({ $0 + "/panel" }) else { return .english }
        let available = Set(Files.names(in: folder, ending: ".po") ?? [])
        let environment = ProcessFacts.environment(["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"])
        let language = PanelWords.language(environment: environment, keyboards: keyboards, available: available)
        guard available.contains(language) else { return .english }
        let path = folder + "/" + language + ".po"
        do {
            let text = String(decoding: try Files.readBytes(path), as: UTF8.self)
            return PanelWords(language: language, translations: try PanelWords.parse(text, file: path))
        } catch {
            warn("\(error); the settings panel speaks English")
            return .english
        }
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
