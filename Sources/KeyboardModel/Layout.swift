/// A place in a layout file, for messages.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`; the file alone for what is about the whole file (line 0).
    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}

/// A layout file that could not be read, with the place and what was expected there.
public struct LayoutError: Error, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// One row of keys, with where it was written.
public struct Row: Equatable, Sendable {
    public var items: [RowItem]
    public var location: SourceLocation

    public init(items: [RowItem], location: SourceLocation) {
        self.items = items
        self.location = location
    }
}

/// A keyboard: its layers, each with rows for the compact and the regular width class.
public struct Layout: Sendable {
    /// The layout's name: its file name without `.layout`.
    public var name: String
    /// The kind of text it is for.
    public var type: KeyboardType
    /// A name for people, shown in the keyboard list: a language's keyboard says it in that language.
    public var title: String
    /// The language its letters are for (a BCP 47 tag: de, en-GB, pt-BR), when it says.
    public var language: String?
    /// The words on its function keys in its language, by `labelNames` ("search": "Suchen"); a key not
    /// named keeps its English word.
    public var labels: [String: String] = [:]
    /// The names of its layers in order; the first is shown first.
    public var layers: [String]
    /// The rows of each layer in each width class.
    var rows: [LayerKey: [Row]]

    struct LayerKey: Hashable, Sendable {
        var layer: String
        var widthClass: WidthClass
    }

    /// The rows of a layer in a width class; empty for a layer the keyboard does not have.
    public func rows(layer: String, widthClass: WidthClass) -> [Row] {
        rows[LayerKey(layer: layer, widthClass: widthClass)] ?? []
    }

    /// The keys a layout may label in its language (`label` lines): the Return key as each return key type
    /// names it (`ReturnKeyType.labelName`), and the other keys that show a word.
    public static let labelNames = ReturnKeyType.allCases.map(\.labelName)
        + ["space", "caps-lock", "undo", "redo", "pause", "hide-keyboard"]

    /// The first layer, shown when the keyboard appears.
    public var defaultLayer: String { layers[0] }
}
