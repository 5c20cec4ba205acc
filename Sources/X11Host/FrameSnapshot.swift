internal import Basics
internal import CX11
internal import Render

#if canImport(Glibc)
import Glibc
#endif

/// The picture of the keyboard's first frame, kept from the start before in `$XDG_CACHE_HOME/keypane/frame`,
/// as a phone keeps a picture of an app to show while it starts: a start whose first frame is the very
/// same (its `FrameDigest`: the keys, their state, the size, theme, program and fonts) puts the picture
/// on screen without a font read or a key drawn, and sets the fonts up and draws the keys once it is there.
///
/// The file is a header of one page, then the pixels as the X server's images hold them, row by row, so that
/// they are mapped and handed to XPutImage as they are. It is written beside its place and renamed over it
/// (mode 0600), so a reader never sees half a file; it holds no typed text (a first frame shows none).
public struct FrameSnapshot: Sendable {
    public let path: String
    /// What the pixels depend on besides what is drawn: the program (its version and its file).
    public let program: String

    public init(path: String, program: String) {
        self.path = path
        self.program = program
    }

    /// The file in the cache folder, beside the font record; nil with neither $XDG_CACHE_HOME nor $HOME set.
    public static func standardPath() -> String? { LabelFonts.cacheFolder().map { $0 + "/frame" } }

    /// Names the running program: its version line and its file's size and time, so a new build never
    /// shows an older one's picture.
    public static func programIdentity(version: String) -> String {
        LabelFonts.fileState(of: "/proc/self/exe").map { version + " " + $0 } ?? version
    }

    /// The first page of the file: what the picture is of, and how its pixels are laid out.
    struct Header: Equatable {
        static let size = 4096
        static let heading = "keypane frame 1"
        var digest: UInt64
        var width: Int
        var height: Int
        var depth: Int
        var bitsPerPixel: Int
        var bytesPerLine: Int
        var byteOrder: Int

        /// The pixels' size in bytes.
        var pixelBytes: Int { bytesPerLine * height }

        /// Two lines, then zeros to the end of the page.
        func encoded() -> [UInt8] {
            let text = "\(Self.heading)\n\(String(digest, radix: 16)) \(width) \(height) \(depth) \(bitsPerPixel) "
                + "\(bytesPerLine) \(byteOrder)\n"
            return Array(text.utf8) + [UInt8](repeating: 0, count: Self.size - text.utf8.count)
        }

        /// Whether an image of the server's lays its pixels out as the file does.
        func matches(_ image: UnsafeMutablePointer<XImage>) -> Bool {
            Int(image.pointee.depth) == depth && Int(image.pointee.bits_per_pixel) == bitsPerPixel
                && Int(image.pointee.bytes_per_line) == bytesPerLine && Int(image.pointee.byte_order) == byteOrder
        }
    }

    /// Why the picture could not be kept.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }
}

extension FrameSnapshot.Header {
    /// Reads a header; nil for anything else (another format, a damaged or foreign file).
    init?(decoding page: UnsafeRawBufferPointer) {
        guard page.count >= Self.size else { return nil }
        let text = String(decoding: page.prefix { $0 != 0 }, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == Self.heading else { return nil }
        let fields = lines[1].split(separator: " ")
        guard fields.count == 7, let digest = UInt64(fields[0], radix: 16) else { return nil }
        let numbers = fields.dropFirst().compactMap { Int($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0 >= 0 && $0 <= 1 << 16 }),
              numbers[0] > 0, numbers[1] > 0, numbers[4] >= numbers[0] else { return nil }
        self.init(digest: digest, width: numbers[0], height: numbers[1], depth: numbers[2],
                  bitsPerPixel: numbers[3], bytesPerLine: numbers[4], byteOrder: numbers[5])
    }

    /// The header of a picture of `height` rows laid out as `image`'s (a band of them, read from the server).
    init(digest: FrameDigest, image: UnsafeMutablePointer<XImage>, height: Int) {
        self.init(digest: digest.value, width: Int(image.pointee.width), height: height,
                  depth: Int(image.pointee.depth), bitsPerPixel: Int(image.pointee.bits_per_pixel),
                  bytesPerLine: Int(image.pointee.bytes_per_line), byteOrder: Int(image.pointee.byte_order))
    }
}

extension KeyboardWindow {
    /// Puts the picture at `path` in the back buffers (not yet on screen), when it is of the frame `digest`
    /// at this window's size and in the server's pixel format; true when it did. A missing, foreign or
    /// damaged file is no error: the frame is drawn instead.
    func putSnapshot(at path: String, digest: FrameDigest) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) > FrameSnapshot.Header.size else { return false }
        let length = Int(info.st_size)
        // Mapped, not read: the pages are the file's, and are let go with the mapping.
        guard let memory = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), memory != MAP_FAILED else { return false }
        defer { munmap(memory, length) }
        guard let header = FrameSnapshot.Header(decoding: UnsafeRawBufferPointer(start: memory, count: FrameSnapshot.Header.size)),
              header.digest == digest.value, header.width == frame.width, header.height == frame.height,
              length >= FrameSnapshot.Header.size + header.pixelBytes else { return false }
        let screen = connection.defaultScreen
        guard let image = XCreateImage(display, XDefaultVisual(display, screen), UInt32(XDefaultDepth(display, screen)),
                                       ZPixmap, 0, nil, UInt32(frame.width), UInt32(frame.height), 32, 0) else { return false }
        // The image's pixels are the file's: it must not free them.
        defer {
            image.pointee.data = nil
            _ = image.pointee.f.destroy_image(image)
        }
        guard header.matches(image) else { return false }
        image.pointee.data = (memory + FrameSnapshot.Header.size).assumingMemoryBound(to: CChar.self)
        // XPutImage has written every byte to the connection (or its buffer) when it returns.
        XPutImage(display, pixmap, gc, image, 0, 0, 0, 0, UInt32(frame.width), UInt32(frame.height))
        XCopyArea(display, pixmap, cleanPixmap, gc, 0, 0, UInt32(frame.width), UInt32(frame.height), 0, 0)
        return true
    }

    /// Keeps what the back buffer shows as the picture of the frame `digest` at `path`: read from the server
    /// in bands of some 64 KiB, written beside the file and renamed over it.
    func writeSnapshot(to path: String, digest: FrameDigest) throws(FrameSnapshot.Problem) {
        let (width, height) = (frame.width, frame.height)
        let rowsPerBand = max(1, 65_536 / max(1, width * 4))
        makeDirectories(upTo: path)
        // A name of this process's own: two keyboards (on two displays) may keep their pictures at once.
        let temporary = path + ".new-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FrameSnapshot.Problem(description: "cannot keep the keyboard's picture in \(path): cannot write "
                                        + "\(temporary): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o600)
        var failure: String?
        func put(_ bytes: UnsafeRawPointer, _ count: Int) {
            var done = 0
            while failure == nil && done < count {
                let written = write(descriptor, bytes + done, count - done)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { failure = String(cString: strerror(errno)) } else { done += written }
            }
        }
        var header: FrameSnapshot.Header?
        var row = 0
        while failure == nil && row < height {
            let rows = min(rowsPerBand, height - row)
            guard let image = XGetImage(display, pixmap, 0, Int32(row), UInt32(width), UInt32(rows), UInt.max, ZPixmap),
                  let data = image.pointee.data else {
                failure = "the X server gave no image of the keyboard"
                break
            }
            defer { _ = image.pointee.f.destroy_image(image) }
            if header == nil {
                let first = FrameSnapshot.Header(digest: digest, image: image, height: height)
                first.encoded().withUnsafeBytes { put($0.baseAddress!, $0.count) }
                header = first
            }
            guard header!.matches(image) else {
                failure = "the X server's images changed format"
                break
            }
            put(data, Int(image.pointee.bytes_per_line) * rows)
            row += rows
        }
        // No fsync: a cache, and a file cut short by a crash is refused by its length.
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw FrameSnapshot.Problem(description: "cannot keep the keyboard's picture in \(path): \(failure)")
        }
    }
}
