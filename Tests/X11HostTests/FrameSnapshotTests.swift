import Foundation
import TestSupport
import Testing
@testable import X11Host

/// The header of the first frame's picture: read back as written, and anything else refused (the frame is
/// then drawn), never trusted.
@Suite struct FrameSnapshotTests {
    typealias Header = FrameSnapshot.Header

    static let header = Header(digest: 0xfeed_beef_0123_4567, width: 1280, height: 320, depth: 24, bitsPerPixel: 32,
                               bytesPerLine: 5120, byteOrder: 0)

    static func read(_ bytes: [UInt8]) -> Header? { bytes.withUnsafeBytes { Header(decoding: $0) } }

    @Test func aHeaderReadsBackAsWritten() {
        let bytes = Self.header.encoded()
        #expect(bytes.count == Header.size)
        #expect(Self.read(bytes) == Self.header)
        #expect(Self.header.pixelBytes == 5120 * 320)
        // The largest digest too.
        var largest = Self.header
        largest.digest = .max
        #expect(Self.read(largest.encoded()) == largest)
    }

    @Test func anythingElseIsRefused() {
        let good = Self.header.encoded()
        func replacing(_ old: String, with new: String) -> [UInt8] {
            let text = String(decoding: good.prefix { $0 != 0 }, as: UTF8.self).replacingOccurrences(of: old, with: new)
            return Array(text.utf8) + [UInt8](repeating: 0, count: Header.size - text.utf8.count)
        }
        #expect(Self.read(Array(good.prefix(Header.size - 1))) == nil, "a short page")
        #expect(Self.read([UInt8](repeating: 0, count: Header.size)) == nil, "zeros")
        #expect(Self.read([UInt8](repeating: 0x41, count: Header.size)) == nil, "no lines")
        #expect(Self.read(replacing("keypane frame 1", with: "keypane frame 2")) == nil, "another format")
        #expect(Self.read(replacing(" 1280 ", with: " -1280 ")) == nil, "a negative width")
        #expect(Self.read(replacing(" 1280 ", with: " 0 ")) == nil, "no width")
        #expect(Self.read(replacing(" 5120 ", with: " 1000 ")) == nil, "rows shorter than the width")
        #expect(Self.read(replacing(" 320 ", with: " 99999999 ")) == nil, "an absurd height")
        #expect(Self.read(replacing(" 0\n", with: "\n")) == nil, "a field missing")
        #expect(Self.read(replacing("feedbeef", with: "feedbeeg")) == nil, "a digest that is not hexadecimal")
    }

    /// Mutated headers (the picture's file is the user's to damage) are read or refused, never a crash; one
    /// that reads is one its own encoding reads back the same.
    @Test func mutatedPictureHeadersReadBackOrAreRefused() {
        var fuzz = Fuzz()
        let seed = Array(Self.header.encoded().prefix { $0 != 0 })
        var read = 0
        for _ in 0..<Fuzz.iterations(3000) {
            var bytes = fuzz.mutate(seed)
            bytes += [UInt8](repeating: 0, count: max(0, Header.size - bytes.count))
            guard let header = Self.read(bytes) else { continue }
            read += 1
            #expect(Self.read(header.encoded()) == header, "seed \(fuzz.seed): \(bytes.prefix(80))")
            #expect(header.width > 0 && header.height > 0 && header.bytesPerLine >= header.width)
        }
        print("picture header fuzz (seed \(fuzz.seed)): \(read) read as headers")
    }
}
