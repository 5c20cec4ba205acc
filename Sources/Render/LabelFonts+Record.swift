#if canImport(Glibc)
import Glibc
#endif
import Basics
internal import CPangoCairo
internal import CPangoFc

extension LabelFonts {
    /// What the whole font configuration answered for the labels' font, and what the answer came from.
    ///
    /// The file is text, one fact a line:
    ///
    ///     keypane fonts 1
    ///     setup language en-us                 (what else the answer depends on: fontconfig's version,
    ///     setup FONTCONFIG_FILE -               the language, the variables naming configuration places)
    ///     font 0 /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf      (face index, file)
    ///     family DejaVu Sans
    ///     emoji 0 /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf   (the colour font emoji come from,
    ///     emoji-family Noto Color Emoji         if the configuration gave them one)
    ///     set hintstyle int 1                  (a rendering setting the configuration gave the pattern)
    ///     stamp 1686.5 3 4096 /etc/fonts/conf.d (modified, inode, size, path; "-" for a path not there)
    struct Record: Equatable {
        static let heading = "keypane fonts 1"

        enum Value: Equatable {
            case bool(Bool), int(Int32), double(Double), string(String)
        }

        struct Stamp: Equatable {
            var path: String
            /// Modification time, inode and size, or nil for a path that is not there.
            var state: String?
        }

        var setup: [String]
        var file: String
        var index: Int32
        var family: String
        /// The colour font the whole configuration draws emoji with, and its face index; emoji are drawn
        /// from its bitmaps (`KeyboardRenderer.drawColourGlyph`), which no rendering setting touches.
        var emoji: (file: String, index: Int32, family: String)?
        var settings: [(name: String, values: [Value])]
        var stamps: [Stamp]

        static func == (a: Record, b: Record) -> Bool {
            a.setup == b.setup && a.file == b.file && a.index == b.index && a.family == b.family
                && a.emoji?.file == b.emoji?.file && a.emoji?.index == b.emoji?.index
                && a.emoji?.family == b.emoji?.family
                && a.stamps == b.stamps && a.settings.map(\.name) == b.settings.map(\.name)
                && a.settings.map(\.values) == b.settings.map(\.values)
        }

        /// The rendering settings a configuration can give a pattern, which the record carries over.
        static let settingNames = ["antialias", "hinting", "hintstyle", "autohint", "rgba", "lcdfilter",
                                   "embolden", "embeddedbitmap", "verticallayout", "minspace",
                                   "fontfeatures", "fontvariations"]

        /// What else fontconfig's answer depends on, now: each line must be the same for a record to hold.
        static func currentSetup() -> [String] {
            var lines = ["setup fontconfig \(Int(FcGetVersion()))",
                         "setup language \(String(cString: pango_language_to_string(pango_language_get_default())))"]
            for name in ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "HOME", "XDG_CONFIG_HOME",
                         "XDG_DATA_HOME"] {
                let value = getenv(name).map { String(cString: $0) } ?? ""
                lines.append("setup \(name) \(value.isEmpty ? "-" : value)")
            }
            return lines
        }

        /// The user's own font places, stamped whether or not they exist: one made later changes the answer.
        static func userPaths() -> [String] {
            let home = getenv("HOME").map { String(cString: $0) } ?? ""
            let variable = { (name: String, fallback: String) -> String in
                if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
                return home + fallback
            }
            let config = variable("XDG_CONFIG_HOME", "/.config") + "/fontconfig"
            let data = variable("XDG_DATA_HOME", "/.local/share")
            var paths = [config, config + "/fonts.conf", config + "/conf.d", data + "/fonts", "/etc/fonts/local.conf"]
            if !home.isEmpty { paths += [home + "/.fonts.conf", home + "/.fonts.conf.d", home + "/.fonts"] }
            return paths
        }

        /// Whether everything the answer came from is as it was.
        func holds() -> Bool {
            setup == Self.currentSetup() && stamps.allSatisfy { LabelFonts.fileState(of: $0.path) == $0.state }
        }

        // MARK: - Made from the whole configuration

        /// The record of the font Pango loaded (its `pattern`, rendering settings and all) under `config`,
        /// and of the colour font it gave emoji (`emoji`, its pattern); nil for a font a record cannot
        /// describe.
        init?(pattern: OpaquePointer, emoji emojiPattern: OpaquePointer?, config: OpaquePointer?) {
            guard let file = Self.values(pattern, "file").first, case .string(let path) = file,
                  let familyValue = Self.values(pattern, "family").first, case .string(let family) = familyValue
            else { return nil }
            var index: Int32 = 0
            _ = FcPatternGetInteger(pattern, "index", 0, &index)
            var matrix = FcMatrix()
            let pointer = UnsafeMutablePointer<UnsafeMutablePointer<FcMatrix>?>.allocate(capacity: 1)
            defer { pointer.deallocate() }
            if FcPatternGetMatrix(pattern, "matrix", 0, pointer) == FcResultMatch, let value = pointer.pointee {
                matrix = value.pointee
                guard matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0 else { return nil }
            }
            var settings: [(name: String, values: [Value])] = []
            for name in Self.settingNames {
                let values = Self.values(pattern, name)
                guard values.count == Self.count(pattern, name) else { return nil }   // a value XML cannot say
                if !values.isEmpty { settings.append((name, values)) }
            }
            var paths: [String] = []
            for list in [FcConfigGetConfigFiles(config), FcConfigGetConfigDirs(config), FcConfigGetFontDirs(config)] {
                guard let list else { continue }
                while let next = FcStrListNext(list) { paths.append(String(cString: next)) }
                FcStrListDone(list)
            }
            var emoji: (file: String, index: Int32, family: String)?
            if let emojiPattern, Self.values(emojiPattern, "color").first == .bool(true),
               let value = Self.values(emojiPattern, "file").first, case .string(let file) = value,
               let name = Self.values(emojiPattern, "family").first, case .string(let family) = name,
               !(file + family).contains("\n") {
                var emojiIndex: Int32 = 0
                _ = FcPatternGetInteger(emojiPattern, "index", 0, &emojiIndex)
                emoji = (file, emojiIndex, family)
            }
            paths += Self.userPaths() + [path] + [emoji?.file].compactMap { $0 }
            var seen = Set<String>()
            let unique = paths.filter { seen.insert($0).inserted }
            let lines = [path, family] + unique + settings.flatMap { $0.values }.compactMap {
                if case .string(let text) = $0 { return text } else { return nil }
            }
            guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
            self.init(setup: Self.currentSetup(), file: path, index: index, family: family, emoji: emoji,
                      settings: settings, stamps: unique.map { Stamp(path: $0, state: LabelFonts.fileState(of: $0)) })
        }

        init(setup: [String], file: String, index: Int32, family: String,
             emoji: (file: String, index: Int32, family: String)? = nil,
             settings: [(name: String, values: [Value])], stamps: [Stamp]) {
            (self.setup, self.file, self.index, self.family, self.emoji, self.settings, self.stamps) =
                (setup, file, index, family, emoji, settings, stamps)
        }

        private static func count(_ pattern: OpaquePointer, _ name: String) -> Int {
            var value = FcValue()
            var count = 0
            while FcPatternGet(pattern, name, Int32(count), &value) == FcResultMatch { count += 1 }
            return count
        }

        private static func values(_ pattern: OpaquePointer, _ name: String) -> [Value] {
            var result: [Value] = []
            var value = FcValue()
            while FcPatternGet(pattern, name, Int32(result.count), &value) == FcResultMatch {
                switch value.type {
                case FcTypeBool where value.u.b == FcTrue || value.u.b == FcFalse: result.append(.bool(value.u.b == FcTrue))
                case FcTypeInteger: result.append(.int(value.u.i))
                case FcTypeDouble: result.append(.double(value.u.d))
                case FcTypeString: result.append(.string(String(cString: value.u.s)))
                default: return result   // stops short: the caller sees fewer values than there are
                }
            }
            return result
        }

        // MARK: - As text

        var text: String {
            var lines = [Self.heading] + setup + ["font \(index) \(file)", "family \(family)"]
            if let emoji { lines += ["emoji \(emoji.index) \(emoji.file)", "emoji-family \(emoji.family)"] }
            for (name, values) in settings {
                for value in values {
                    switch value {
                    case .bool(let flag): lines.append("set \(name) bool \(flag ? 1 : 0)")
                    case .int(let number): lines.append("set \(name) int \(Int(number))")
                    case .double(let number): lines.append("set \(name) double \(number)")
                    case .string(let text): lines.append("set \(name) string \(text)")
                    }
                }
            }
            lines += stamps.map { "stamp \($0.state ?? "- - -") \($0.path)" }
            return lines.joined(separator: "\n") + "\n"
        }

        /// The record a file holds; nil for anything else (another version's record, a damaged file).
        init?(parsing text: String) {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.first == Substring(Self.heading), lines.last == "" else { return nil }
            lines.removeFirst()
            lines.removeLast()
            var setup: [String] = [], settings: [(name: String, values: [Value])] = [], stamps: [Stamp] = []
            var file: String?, index: Int32 = 0, family: String?, emojiFont: (file: String, index: Int32)?
            var emojiFamily: String?
            for line in lines {
                let words = line.split(separator: " ", maxSplits: 1)
                guard words.count == 2 else { return nil }
                let rest = String(words[1])
                switch words[0] {
                case "setup": setup.append(String(line))
                case "family": family = rest
                case "emoji-family": emojiFamily = rest
                case "font", "emoji":
                    let parts = rest.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, let number = Int32(parts[0]) else { return nil }
                    if words[0] == "font" { (index, file) = (number, String(parts[1])) }
                    else { emojiFont = (String(parts[1]), number) }
                case "set":
                    let parts = rest.split(separator: " ", maxSplits: 2)
                    guard parts.count == 3 else { return nil }
                    let value: Value
                    switch parts[1] {
                    case "bool": value = .bool(parts[2] == "1")
                    case "int": guard let number = Int32(parts[2]) else { return nil }; value = .int(number)
                    case "double": guard let number = Double(parts[2]) else { return nil }; value = .double(number)
                    case "string": value = .string(String(parts[2]))
                    default: return nil
                    }
                    if settings.last?.name == String(parts[0]) { settings[settings.count - 1].values.append(value) }
                    else { settings.append((String(parts[0]), [value])) }
                case "stamp":
                    let parts = rest.split(separator: " ", maxSplits: 3)
                    guard parts.count == 4 else { return nil }
                    let state = parts[0] == "-" ? nil : parts[0...2].joined(separator: " ")
                    stamps.append(Stamp(path: String(parts[3]), state: state))
                default: return nil
                }
            }
            guard let file, let family, (emojiFont == nil) == (emojiFamily == nil) else { return nil }
            let emoji = emojiFont.flatMap { font in emojiFamily.map { (font.file, font.index, $0) } }
            self.init(setup: setup, file: file, index: index, family: family, emoji: emoji, settings: settings,
                      stamps: stamps)
        }

        // MARK: - The one-font configuration

        /// The rules that give a pattern the recorded settings, as fontconfig's XML; with `emoji`, also
        /// the rule that gives emoji (Pango asks for them in the family "emoji") the emoji font before the
        /// labels' font, which has some in black and white, as the whole configuration's aliases do.
        func rules(emoji: Bool = false) -> String {
            func escaped(_ text: String) -> String {
                text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
            }
            var xml = "<?xml version=\"1.0\"?>\n<fontconfig>\n<match target=\"pattern\">\n"
            for (name, values) in settings {
                xml += "<edit name=\"\(name)\" mode=\"assign\" binding=\"strong\">"
                for value in values {
                    switch value {
                    case .bool(let flag): xml += "<bool>\(flag)</bool>"
                    case .int(let number): xml += "<int>\(Int(number))</int>"
                    case .double(let number): xml += "<double>\(number)</double>"
                    case .string(let text): xml += "<string>\(escaped(text))</string>"
                    }
                }
                xml += "</edit>\n"
            }
            xml += "</match>\n"
            if emoji, let font = self.emoji {
                xml += "<match target=\"pattern\"><test name=\"family\"><string>emoji</string></test>"
                    + "<edit name=\"family\" mode=\"prepend\" binding=\"strong\"><string>\(escaped(font.family))</string></edit></match>\n"
            }
            return xml + "</fontconfig>\n"
        }

        /// A configuration of the recorded font and settings alone, and the emoji font (`hasEmoji`); nil
        /// when fontconfig will not make it, or when in it the labels' family would not find the recorded
        /// face. Without the emoji font when it would take the labels' place: emoji need the whole
        /// configuration then.
        func configuration() -> (config: OpaquePointer, hasEmoji: Bool)? {
            if emoji != nil, let config = configuration(withEmoji: true) { return (config, true) }
            return configuration(withEmoji: false).map { ($0, false) }
        }

        private func configuration(withEmoji: Bool) -> OpaquePointer? {
            guard let config = FcConfigCreate() else { return nil }
            var made = fcString(rules(emoji: withEmoji)) { FcConfigParseAndLoadFromMemory(config, $0, FcFalse) } == FcTrue
                && fcString(file) { FcConfigAppFontAddFile(config, $0) } == FcTrue
            if withEmoji, let emoji {
                made = made && fcString(emoji.file) { FcConfigAppFontAddFile(config, $0) } == FcTrue
            }
            guard made, finds(in: config) else {
                FcConfigDestroy(config)
                return nil
            }
            return config
        }

        private func finds(in config: OpaquePointer) -> Bool {
            guard let pattern = FcPatternCreate() else { return false }
            defer { FcPatternDestroy(pattern) }
            _ = fcString(KeyboardRenderer.fontFamily) { FcPatternAddString(pattern, "family", $0) }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultMatch
            guard let match = FcFontMatch(config, pattern, &result) else { return false }
            defer { FcPatternDestroy(match) }
            var found: UnsafeMutablePointer<FcChar8>?
            var foundIndex: Int32 = 0
            guard FcPatternGetString(match, "file", 0, &found) == FcResultMatch, let found,
                  FcPatternGetInteger(match, "index", 0, &foundIndex) == FcResultMatch else { return false }
            return String(cString: found) == file && foundIndex == index
        }
    }
}

/// A Swift string as fontconfig's unsigned characters, for the length of `body`.
private func fcString<Result>(_ text: String, _ body: (UnsafePointer<FcChar8>) -> Result) -> Result {
    text.withCString { $0.withMemoryRebound(to: FcChar8.self, capacity: text.utf8.count + 1, body) }
}
