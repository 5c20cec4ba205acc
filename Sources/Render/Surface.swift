internal import CCairo
package import KeyboardModel

/// Why drawing failed: cairo's status, or a file that could not be written.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    case cairo(String)
    case writePNG(path: String, reason: String)

    public var description: String {
        switch self {
        case .cairo(let reason): "cairo: \(reason)"
        case .writePNG(let path, let reason): "cannot write \(path): \(reason)"
        }
    }

    static func check(_ status: cairo_status_t) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }
}

/// A cairo surface that Keypane draws on: an image in memory, or (from X11Host) a window.
public final class Surface {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int
    /// Puts one of the renderer's kept images on this surface with its top-left corner at the area's, only
    /// inside `clip`: an opaque image (a key) replaces the pixels, one with transparency (a balloon) is
    /// blended over them. False where it cannot, and cairo draws it. A window's buffer does it in the X
    /// server, so a press or release runs no cairo code at all.
    package var imagePlacer: ((_ image: OpaquePointer, _ area: Rect, _ clip: Rect) -> Bool)?

    /// An image surface of the given size, 32-bit ARGB.
    public convenience init(width: Int, height: Int) throws(RenderError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .cairo("no image surface")
        }
        try self.init(adopting: surface, width: width, height: height)
    }

    /// Takes ownership of a cairo surface made elsewhere in the package.
    package init(adopting surface: OpaquePointer, width: Int, height: Int) throws(RenderError) {
        do { try RenderError.check(cairo_surface_status(surface)) } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }

    /// Writes the surface as a PNG file.
    public func writePNG(to path: String) throws(RenderError) {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .writePNG(path: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }

    /// The pixels of an image surface, as 32-bit native-endian ARGB, row by row (stride given).
    public func withPixels<R>(_ body: (UnsafeRawBufferPointer, _ stride: Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height), stride)
    }

    /// Lends the cairo surface to code in this package that speaks cairo.
    package func withUnsafeCairoSurface<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try body(surface)
    }
}
