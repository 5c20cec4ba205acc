/// Makes a premultiplied 32-bit image (cairo's ARGB32, FreeType's BGRA: one byte per channel, alpha in the
/// top byte) smaller by an area filter: each pixel of the result is the mean of the part of the source it
/// covers, a source pixel partly covered weighing as much as it is covered. This is the filter cairo's
/// GOOD gives a shrinking image, whose general convolution in pixman took a third of a millisecond for each
/// emoji drawn (more than decoding its PNG); two passes over a few thousand pixels take a few microseconds.
struct AreaShrink {
    /// The size of the result.
    let width: Int, height: Int
    private let columns: Spans, rows: Spans

    /// For each pixel of the result along one axis, the first source pixel it covers and the weights of the
    /// `taps` pixels from there (zero past the end).
    private struct Spans {
        let source: Int
        let first: [Int]
        let weights: [Float]
        let taps: Int

        /// Output pixel `i` covers the source from `i / scale` to `(i + 1) / scale`; the last one may run
        /// past the source, whose outside is transparent.
        init(source: Int, scale: Double, count: Int) {
            self.source = source
            taps = Int((1 / scale).rounded(.up)) + 1
            var first = [Int](repeating: 0, count: count)
            var weights = [Float](repeating: 0, count: count * taps)
            for i in 0..<count {
                let start = Double(i) / scale, end = min(Double(i + 1) / scale, Double(source))
                let from = Int(start.rounded(.down))
                first[i] = from
                for t in 0..<taps {
                    let k = from + t
                    guard Double(k) < end else { break }
                    weights[i * taps + t] = Float((min(Double(k + 1), end) - max(Double(k), start)) * scale)
                }
            }
            self.first = first
            self.weights = weights
        }

        /// Calls `body` with each output pixel, its first source pixel and its weights.
        func each(_ body: (Int, Int, UnsafeBufferPointer<Float>) -> Void) {
            weights.withUnsafeBufferPointer { weights in
                for (i, from) in first.enumerated() {
                    body(i, from, UnsafeBufferPointer(rebasing: weights[i * taps ..< (i + 1) * taps]))
                }
            }
        }
    }

    /// A shrink of a `width` × `height` source by `scale` (0 < scale < 1): the result is the scaled size
    /// rounded up.
    init?(width sourceWidth: Int, height sourceHeight: Int, scale: Double) {
        guard sourceWidth > 0, sourceHeight > 0, scale > 0, scale < 1 else { return nil }
        width = Int((Double(sourceWidth) * scale).rounded(.up))
        height = Int((Double(sourceHeight) * scale).rounded(.up))
        columns = Spans(source: sourceWidth, scale: scale, count: width)
        rows = Spans(source: sourceHeight, scale: scale, count: height)
    }

    /// Shrinks the source (`pitch` bytes a row) into `target` (`stride` bytes a row, `width` × `height`).
    func shrink(_ source: UnsafeRawPointer, pitch: Int, into target: UnsafeMutableRawPointer, stride: Int) {
        // Across first: each source row into the output's columns. (A weight of zero ends a span: every
        // pixel a span reads has a weight above it.)
        let across = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: width * rows.source)
        defer { across.deallocate() }
        columns.each { i, from, weights in
            for y in 0..<rows.source {
                let row = source.advanced(by: y * pitch).assumingMemoryBound(to: SIMD4<UInt8>.self)
                var sum = SIMD4<Float>.zero
                for (t, weight) in weights.enumerated() {
                    if weight == 0 { break }
                    sum += SIMD4<Float>(row[from + t]) * weight
                }
                across[y * width + i] = sum
            }
        }
        // Then down: each output row from the rows it covers.
        rows.each { j, from, weights in
            let out = target.advanced(by: j * stride).assumingMemoryBound(to: UInt32.self)
            for i in 0..<width {
                var sum = SIMD4<Float>.zero
                for (t, weight) in weights.enumerated() {
                    if weight == 0 { break }
                    sum += across[(from + t) * width + i] * weight
                }
                out[i] = Self.pixel(sum)
            }
        }
    }

    /// Four channels rounded into a pixel, no colour above its alpha (premultiplied). Lane by lane, in
    /// scalars: the vector conversion (`SIMD4<UInt32>(_:)`) and clamp (`clamped`) are generic paths, not
    /// specialized, and took twice as long as the filter itself.
    @inline(__always) private static func pixel(_ sum: SIMD4<Float>) -> UInt32 {
        let rounded = sum + 0.5
        let alpha = max(0, min(rounded[3], 255))
        @inline(__always) func lane(_ value: Float) -> UInt32 { UInt32(max(0, min(value, alpha))) }
        return UInt32(alpha) << 24 | lane(rounded[2]) << 16 | lane(rounded[1]) << 8 | lane(rounded[0])
    }
}
