public import Basics
/// Where the floating keyboard was left, kept between runs in one line of text: "x y", in pixels of the
/// root window.
public struct PositionFile: Sendable {
    let file: StateFile
    public var path: String { file.path }

    public init(path: String) { file = StateFile(path: path) }

    /// The file in $XDG_STATE_HOME/keypane (else ~/.local/state/keypane), or nil with neither set.
    public static func standard() -> PositionFile? { StateFile.standard("floating-position").map { PositionFile(path: $0.path) } }

    public typealias Problem = StateFile.Problem

    /// The position kept, nil when there is none yet; a file that says something else is a problem that
    /// names it.
    public func load() throws(Problem) -> (x: Int, y: Int)? {
        guard let line = try file.readLine() else { return nil }
        guard !line.isEmpty else {
            throw Problem(description: "\(path):1: empty: expected the position as two whole numbers, x and y")
        }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 2, let x = Int(fields[0]), let y = Int(fields[1]) else {
            throw Problem(description: "\(path):1: '\(line)' is not a position: expected two whole numbers, x and y")
        }
        return (x, y)
    }

    /// Keeps a position: written beside the file and renamed over it, so a crash never leaves half a file.
    public func save(x: Int, y: Int) throws(Problem) { try file.write("\(x) \(y)") }
}
