extension DefaultStringInterpolation {
    /// A whole number in decimal, as "\(value)" writes it: "\(decimal: info.st_size)". For the numbers
    /// start-up writes (a file's time and size in the font record's checks and the first frame's digest, an
    /// atom's or a folder's name): the standard library's integer formatting lies apart from the rest of
    /// the code start-up runs, and made three 64 KiB runs of it resident for them.
    public mutating func appendInterpolation(decimal value: Int) {
        appendDecimal(value.magnitude, negative: value < 0)
    }

    public mutating func appendInterpolation(decimal value: UInt) {
        appendDecimal(value, negative: false)
    }

    private mutating func appendDecimal(_ magnitude: UInt, negative: Bool) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
            var start = buffer.count
            var rest = magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: rest % 10) + UInt8(ascii: "0")
                rest /= 10
            } while rest > 0
            if negative {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            appendLiteral(String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self))
        }
    }
}
