public import KeyboardModel

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
