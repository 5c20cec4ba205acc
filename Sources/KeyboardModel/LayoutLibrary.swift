internal import Basics
#if canImport(Glibc)
import Glibc
#endif

/// The layouts Keypane knows, read from a folder of `NAME.layout` files.
///
/// Each file is parsed and resolved on its own terms (its `inherit` chain), and checked: every layer
/// listed has rows in both width classes, every `@layer:` key names a listed layer.
public struct LayoutLibrary: Sendable {
    public private(set) var layouts: [String: Layout] = [:]
    /// The names of every layout file given, read or not (`only`), sorted: what a name may be.
    public private(set) var available: [String] = []
    /// The statements of the keyboards that may be made on another's letters (`rebased`): those of a type
    /// other than the default that inherit the default keyboard. The others' are let go once resolved.
    private var rebaseable: [String: LayoutSource] = [:]
    /// Each layout's layers made with `from`, which a layout made on it (`rebased`) derives again.
    private var derivations: [String: [Layout.LayerKey: String]] = [:]

    /// An empty library; add files with `add(text:name:file:)`.
    public init() {}

    /// Reads the `.layout` files of a folder (or those named in `only`, with the layouts they inherit from).
    /// A file that cannot be read stops the load with its error.
    public init(directory: String, only names: Set<String>? = nil) throws(LayoutError) {
        try self.init(files: try Self.layoutPaths(in: directory), only: names)
    }

    /// Builds a library from layout files, name -> path, each read only if it is parsed: with `only`, just
    /// the layouts named there and those they inherit from are read, parsed and checked (a keyboard starts
    /// with the layouts it shows, and reads the others once it is on screen).
    public init(files: [String: String], only names: Set<String>? = nil) throws(LayoutError) {
        try self.init(names: Array(files.keys), only: names) { name throws(LayoutError) in
            guard let path = files[name] else { return nil }
            return (try Self.readFile(path), path)
        }
    }

    /// Builds a library from file texts: name -> (text, file name for messages), parsed as `init(files:)`
    /// parses files.
    public init(texts: [String: (text: String, file: String)], only names: Set<String>? = nil) throws(LayoutError) {
        try self.init(names: Array(texts.keys), only: names) { texts[$0] }
    }

    private init(names all: [String], only names: Set<String>?,
                 text: (String) throws(LayoutError) -> (text: String, file: String)?) throws(LayoutError) {
        var sources: [String: LayoutSource] = [:]
        var pending = (names.map { Array($0) } ?? all).sorted(by: >)
        while let name = pending.popLast() {
            guard sources[name] == nil, let entry = try text(name) else { continue }
            let source = try LayoutParser.parse(entry.text, name: name, file: entry.file)
            sources[name] = source
            if let (parent, _) = source.inherit, names != nil { pending.append(parent) }
        }
        var resolver = Resolver(sources: sources, known: all)
        for name in sources.keys.sorted() {
            layouts[name] = try resolver.resolve(name, chain: [])
        }
        derivations = resolver.derivations
        rebaseable = sources.filter { $0.value.inherit?.0 == "default" && layouts[$0.key]?.type != .default }
        available = all.sorted()
    }

    /// The layout of a given name.
    public subscript(name: String) -> Layout? { layouts[name] }

    /// Adds a layout made other than from a file (the emoji keyboard), or puts it in place of its old self.
    public mutating func add(_ layout: Layout) {
        layouts[layout.name] = layout
        if !available.contains(layout.name) { available = (available + [layout.name]).sorted() }
    }

    /// Takes in the layouts of a library read later (a keyboard type's at its first field, another
    /// language's when asked for) that this one lacks, with what making keyboards on a language's letters
    /// (`rebased`) needs of them. The layouts this one has stay, made rather than read ones too (the emoji
    /// keyboard, a keyboard on a language's letters).
    public mutating func merge(_ later: LayoutLibrary) {
        layouts.merge(later.layouts) { own, _ in own }
        rebaseable.merge(later.rebaseable) { own, _ in own }
        derivations.merge(later.derivations) { own, _ in own }
        available = Array(Set(available).union(later.available)).sorted()
    }

    /// What the space bar of `layout` says among the `enabled` keyboards: the language's name while keyboards
    /// of more than one language are enabled (nil: the usual). A language's keyboard is one of the default
    /// type; the email and URL keyboards inherit English's language from the default keyboard but are no
    /// languages of their own.
    func spaceLabel(for layout: Layout, among enabled: [String]) -> String? {
        let languages = Set(enabled.compactMap { self[$0] }.filter { $0.type == .default }.compactMap(\.language))
        return languages.count > 1 && layout.type == .default && layout.language != nil ? layout.title : nil
    }

    /// The words on `layout`'s function keys: its own for a language's keyboard; for one of no language (the
    /// number pads), those of the language keyboard shown last, under its own.
    func labels(for layout: Layout, languageKeyboard: String) -> [String: String] {
        guard layout.language == nil, let language = self[languageKeyboard] else { return layout.labels }
        return language.labels.merging(layout.labels) { _, own in own }
    }

    /// `options` for laying out `layout` among the `enabled` keyboards, the language keyboard shown last
    /// being `languageKeyboard`: with its space bar's name and its function keys' words.
    public func options(_ options: LayoutOptions, for layout: Layout, among enabled: [String],
                        languageKeyboard: String) -> LayoutOptions {
        var options = options
        options.spaceLabel = spaceLabel(for: layout, among: enabled)
        options.labels = labels(for: layout, languageKeyboard: languageKeyboard)
        return options
    }

    /// A keyboard that inherits the default keyboard's letters (email, URL, web search) made on a
    /// language's keyboard instead: the email keyboard with German letters, named "email@de". Returns its
    /// name; nil when the layout does not inherit the default keyboard, the language's keyboard is the
    /// default one, or either was not read.
    public mutating func rebased(_ name: String, on language: String) -> String? {
        guard language != "default", let source = rebaseable[name], let (parent, location) = source.inherit,
              parent == "default", layouts[language] != nil else { return nil }
        let rebasedName = name + "@" + language
        if layouts[rebasedName] != nil { return rebasedName }
        var rebased = source
        rebased.name = rebasedName
        rebased.inherit = (language, location)
        // Resolved on the language's layout as it stands, with the layers it derives.
        var resolver = Resolver(sources: [rebasedName: rebased], known: available, done: layouts, derivations: derivations)
        guard let layout = try? resolver.resolve(rebasedName, chain: []) else { return nil }
        layouts[rebasedName] = layout
        return rebasedName
    }

    /// The bundled layout for a keyboard type: the one named after it.
    public func layout(for type: KeyboardType) -> Layout? { layouts[type.rawValue] }

    // MARK: - Files

    /// The names of the `.layout` files in a folder, sorted, without their extension.
    public static func layoutFiles(in directory: String) throws(LayoutError) -> [String] {
        guard let names = Files.names(in: directory, ending: ".layout") else {
            throw LayoutError(SourceLocation(file: directory, line: 0, column: 0),
                              "cannot open the layout folder: \(String(cString: strerror(errno)))")
        }
        return names
    }

    /// The `.layout` files in a folder, name -> path.
    public static func layoutPaths(in directory: String) throws(LayoutError) -> [String: String] {
        var paths: [String: String] = [:]
        for name in try layoutFiles(in: directory) { paths[name] = directory + "/" + name + ".layout" }
        return paths
    }

    /// The whole of a file as UTF-8 text.
    public static func readFile(_ path: String) throws(LayoutError) -> String {
        guard let text = String(validating: try readBytes(path), as: UTF8.self) else { throw notText(path) }
        return text
    }

    private static func notText(_ path: String) -> LayoutError {
        LayoutError(SourceLocation(file: path, line: 0, column: 0), "the file is not UTF-8 text")
    }

    /// A file's bytes; a file that cannot be read, or with `utf8` is not UTF-8 text, is an error naming it.
    public static func readBytes(_ path: String, utf8: Bool = false) throws(LayoutError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try Files.readBytes(path) } catch {
            throw LayoutError(SourceLocation(file: path, line: 0, column: 0), "cannot read the file: \(error.reason)")
        }
        if utf8, String(validating: bytes, as: UTF8.self) == nil { throw notText(path) }
        return bytes
    }
}

/// Turns parsed sources into checked layouts, following `inherit`.
private struct Resolver {
    let sources: [String: LayoutSource]
    /// Every layout's name, read or not, for messages.
    let known: [String]
    var done: [String: Layout] = [:]
    /// Layers made with `from`, per layout, so that a child's changes reach them.
    var derivations: [String: [Layout.LayerKey: String]] = [:]

    /// `done` and `derivations`: layouts resolved before, which the sources may inherit.
    init(sources: [String: LayoutSource], known: [String], done: [String: Layout] = [:],
         derivations: [String: [Layout.LayerKey: String]] = [:]) {
        self.sources = sources
        self.known = known
        self.done = done
        self.derivations = derivations
    }

    mutating func resolve(_ name: String, chain: [String]) throws(LayoutError) -> Layout {
        if let layout = done[name] { return layout }
        guard let source = sources[name] else { preconditionFailure("resolve is called with known names") }

        var type = source.type?.0
        var title = source.title
        var language = source.language
        var labels = source.labels
        var layers = source.layers?.0
        var rows: [Layout.LayerKey: [Row]] = [:]
        var derived: [Layout.LayerKey: String] = [:]
        var layersLocation = source.layers?.1 ?? SourceLocation(file: source.file, line: 1)

        if let (parentName, location) = source.inherit {
            guard sources[parentName] != nil || done[parentName] != nil else {
                throw LayoutError(location, "unknown layout '\(parentName)' to inherit: expected one of "
                                  + known.sorted().joined(separator: ", "))
            }
            if parentName == name || chain.contains(parentName) {
                throw LayoutError(location, "'inherit \(parentName)' makes a cycle")
            }
            let parent = try resolve(parentName, chain: chain + [name])
            type = type ?? parent.type
            title = title ?? parent.title
            language = language ?? parent.language
            labels = parent.labels.merging(labels) { _, own in own }
            if layers == nil {
                layers = parent.layers
                layersLocation = location
            }
            rows = parent.rows
            derived = derivations[parentName] ?? [:]
        }
        guard let type else {
            throw LayoutError(SourceLocation(file: source.file, line: 1),
                              "missing 'type' line: expected 'type' and one of \(KeyboardType.allNames)")
        }
        guard let layers else {
            throw LayoutError(SourceLocation(file: source.file, line: 1),
                              "missing 'layers' line: expected 'layers' and the layer names, such as 'layers letters shifted numbers symbols'")
        }

        for section in source.sections {
            guard layers.contains(section.layer) else {
                throw LayoutError(section.location, "layer '\(section.layer)' is not in the 'layers' line (\(layers.joined(separator: " ")))")
            }
            for widthClass in section.classes {
                let key = Layout.LayerKey(layer: section.layer, widthClass: widthClass)
                if let from = section.derivedFrom {
                    guard layers.contains(from) else {
                        throw LayoutError(section.location, "layer '\(from)' to derive from is not in the 'layers' line")
                    }
                    derived[key] = from
                    continue
                }
                derived[key] = nil
                let inherited = rows[key] ?? []
                var result: [Row] = []
                for (index, line) in section.rows.enumerated() {
                    switch line {
                    case .row(let row): result.append(row)
                    case .same(let location):
                        guard index < inherited.count else {
                            throw LayoutError(location, "'same' has no inherited row \(index + 1) of layer '\(section.layer)' (\(widthClass.rawValue)) to keep")
                        }
                        result.append(inherited[index])
                    }
                }
                guard !result.isEmpty else {
                    throw LayoutError(section.location, "layer '\(section.layer)' has no rows: expected 'row' lines after it")
                }
                rows[key] = result
            }
        }
        for (key, from) in derived {
            let sourceKey = Layout.LayerKey(layer: from, widthClass: key.widthClass)
            guard derived[sourceKey] == nil else {
                throw LayoutError(layersLocation, "layer '\(key.layer)' derives from '\(from)', which is itself derived")
            }
            rows[key] = (rows[sourceKey] ?? []).map(Self.shifted)
        }

        // Every listed layer has rows in both classes; every layer key names a listed layer.
        for layer in layers {
            for widthClass in WidthClass.allCases
            where rows[Layout.LayerKey(layer: layer, widthClass: widthClass)] == nil {
                throw LayoutError(layersLocation, "missing layer '\(layer)' (\(widthClass.rawValue)): expected a 'layer \(layer)' section")
            }
        }
        for (_, layerRows) in rows.sorted(by: { $0.key.layer < $1.key.layer }) {
            for row in layerRows {
                for case .key(let key) in row.items {
                    if case .layer(let target) = key.function, !layers.contains(target) {
                        throw LayoutError(row.location, "key '@layer:\(target)' names a layer that is not in the 'layers' line (\(layers.joined(separator: " ")))")
                    }
                }
            }
        }
        rows = rows.filter { layers.contains($0.key.layer) }

        var layout = Layout(name: name, type: type, title: title ?? name, language: language, layers: layers, rows: rows)
        layout.labels = labels
        done[name] = layout
        derivations[name] = derived
        return layout
    }

    /// The shifted form of a row: letters in upper case; a key with a secondary label types it, and looks
    /// as it did (its shifted character small above its own, as on iPad: swapping them would put a small
    /// comma above a large "!", which reads as "¡").
    static func shifted(_ row: Row) -> Row {
        var row = row
        row.items = row.items.map { item in
            guard case .key(var key) = item, case .text(let text) = key.function, text != " " else { return item }
            if let secondary = key.secondary {
                key.function = .text(secondary)
                key.label = key.label ?? text
            } else if isLetter(text) {
                key.function = .text(text.uppercased())
                key.label = key.label?.uppercased()
                key.alternates = key.alternates.map { isLetter($0) ? $0.uppercased() : $0 }
            }
            return .key(key)
        }
        return row
    }

    private static func isLetter(_ text: String) -> Bool { text.count == 1 && text.first!.isLetter }
}
