import CX11
import CXTest

#if canImport(Glibc)
import Glibc
#endif

extension LiveBench {
    /// Taps at a point (held 20 ms unless told) and returns the time from the release until the window's pixel row `row`
    /// (window coordinates) showed other pixels; nil if it did not within a second.
    func redrawAfterTap(at point: (Int, Int), window: UInt, row: Int, width: Int, held: Double = 0.02) -> Double? {
        func pixels() -> [UInt] {
            guard let image = XGetImage(dpy, window, 0, Int32(row), UInt32(width), 1, UInt.max, ZPixmap) else { return [] }
            defer { _ = image.pointee.f.destroy_image(image) }
            return (0..<Int32(width)).map { image.pointee.f.get_pixel(image, $0, 0) }
        }
        let before = pixels()
        XTestFakeMotionEvent(dpy, -1, Int32(point.0), Int32(point.1), 0)
        XTestFakeButtonEvent(dpy, 1, 1, 0)
        XFlush(dpy)
        usleep(useconds_t(held * 1_000_000))
        let released = now()
        XTestFakeButtonEvent(dpy, 1, 0, 0)
        XFlush(dpy)
        defer { usleep(50_000) }
        while now() < released + 1 {
            if pixels() != before { return now() - released }
            usleep(200)
        }
        return nil
    }
}
