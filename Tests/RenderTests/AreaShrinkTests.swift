import CCairo
@testable import Render
import Testing

extension Rendering {
    /// `AreaShrink`, the filter emoji bitmaps are made smaller with: each pixel the mean of what it covers.
    @Suite struct AreaShrinkTests {
        /// Three pixels into two (three rows alike): each output pixel covers one source pixel and half of
        /// the middle one.
        @Test func eachPixelIsTheMeanOfTheAreaItCovers() throws {
            let row: [UInt32] = [0xFF_FF_00_00, 0xFF_00_FF_00, 0x00_00_00_00]
            let source = row + row + row
            let shrink = try #require(AreaShrink(width: 3, height: 3, scale: 2.0 / 3))
            #expect(shrink.width == 2 && shrink.height == 2)
            var out = [UInt32](repeating: 0, count: 4)
            source.withUnsafeBytes { from in
                out.withUnsafeMutableBytes { shrink.shrink(from.baseAddress!, pitch: 12, into: $0.baseAddress!, stride: 8) }
            }
            // Left: red whole and green half, over 1.5 pixels: alpha 255, red 170, green 85.
            #expect(out[0] == 0xFF_AA_55_00 && out[2] == out[0], "\(String(out[0], radix: 16))")
            // Right: green half and a transparent pixel: alpha 85, green 85 (premultiplied).
            #expect(out[1] == 0x55_00_55_00 && out[3] == out[1], "\(String(out[1], radix: 16))")
        }

        /// A size that does not divide: the last pixel covers the source's end and transparency past it; no
        /// colour ever above its alpha.
        @Test func theLastPixelRunsPastTheSourceAndStaysPremultiplied() throws {
            let source = [UInt32](repeating: 0x80_40_20_10, count: 5 * 5)
            let shrink = try #require(AreaShrink(width: 5, height: 5, scale: 0.5))
            #expect(shrink.width == 3 && shrink.height == 3)
            var out = [UInt32](repeating: 0, count: 9)
            source.withUnsafeBytes { from in
                out.withUnsafeMutableBytes { shrink.shrink(from.baseAddress!, pitch: 20, into: $0.baseAddress!, stride: 12) }
            }
            #expect(out[0] == 0x80_40_20_10)
            #expect(out[2] == 0x40_20_10_08, "\(String(out[2], radix: 16))")     // half covered
            #expect(out[8] == 0x20_10_08_04, "\(String(out[8], radix: 16))")     // a quarter
            #expect(AreaShrink(width: 5, height: 5, scale: 1) == nil && AreaShrink(width: 0, height: 5, scale: 0.5) == nil)
        }

        /// The same pixels as cairo's GOOD filter (which takes this filter when it shrinks), within rounding,
        /// for a picture with edges, gradients and transparency, at the sizes emoji keys draw at.
        @Test func itDrawsWhatCairosGoodFilterDraws() throws {
            let width = 136, height = 128
            var source = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let alpha = UInt32((x + y) * 255 / (width + height))
                    let inside = (x / 9 + y / 7) % 3 != 0
                    let red = inside ? alpha : alpha / 3, green = UInt32(x * 2) * alpha / 272, blue = y % 11 < 5 ? alpha : 0
                    source[y * width + x] = alpha << 24 | red << 16 | green << 8 | blue
                }
            }
            for scale in [0.3, 0.41, 0.55, 0.7] {
                let shrink = try #require(AreaShrink(width: width, height: height, scale: scale))
                let ours = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(shrink.width), Int32(shrink.height)))
                let theirs = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(shrink.width), Int32(shrink.height)))
                defer { cairo_surface_destroy(ours); cairo_surface_destroy(theirs) }
                let stride = Int(cairo_image_surface_get_stride(ours))
                source.withUnsafeMutableBytes { bytes in
                    shrink.shrink(bytes.baseAddress!, pitch: width * 4, into: cairo_image_surface_get_data(ours), stride: stride)
                    cairo_surface_mark_dirty(ours)
                    let image = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                    CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
                    let cr = cairo_create(theirs)
                    cairo_scale(cr, scale, scale)
                    cairo_set_source_surface(cr, image, 0, 0)
                    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                    cairo_paint(cr)
                    cairo_destroy(cr)
                    cairo_surface_destroy(image)
                }
                cairo_surface_flush(theirs)
                var largest = 0
                for y in 0..<shrink.height {
                    let a = cairo_image_surface_get_data(ours)! + y * stride, b = cairo_image_surface_get_data(theirs)! + y * stride
                    for byte in 0..<shrink.width * 4 { largest = max(largest, abs(Int(a[byte]) - Int(b[byte]))) }
                }
                #expect(largest <= 3, "scale \(scale): a channel \(largest) levels from cairo's")
            }
        }
    }
}
