import CX11
import Foundation
import Testing

/// The picture of the first frame ($XDG_CACHE_HOME/keypane/frame): a start whose first frame is the last
/// start's shows the picture before its fonts are set up, then draws the same pixels over it, and types;
/// another frame, a damaged picture or one that no longer matches what is drawn never leaves the keyboard
/// looking wrong.
@Suite(.serialized) struct FrameSnapshotEndToEndTests {
    static let arguments = ["--keyboards", "default", "--height", "320"]

    struct Start {
        var pixels: [UInt8]
        var trace: String
        var steps: [String] {
            trace.split(separator: "\n").filter { $0.hasPrefix("keypane: trace: ") }
                .map { String($0.split(separator: " ", maxSplits: 5).last ?? "") }
        }
    }

    /// Starts the keyboard, waits for its drawing to settle (then, with `text`, types it into `terminal`),
    /// and ends it.
    static func start(_ session: XSession, _ extra: [String] = [], typing text: String? = nil,
                      into terminal: Terminal? = nil) throws -> Start {
        let keyboard = try LiveKeyboard(session: session, arguments: arguments + extra,
                                        environment: ["KEYPANE_TRACE": "1"])
        let pixels = FontRecordEndToEndTests.settledPixels(session, keyboard)
        if let text, let terminal {
            keyboard.extra = ["--no-globe"]
            let letters = try keyboard.geometry(type: "default", layer: "letters")
            for letter in text { keyboard.tap(try #require(letters.key(label: String(letter)), "\(letter)")) }
            #expect(terminal.waitFor(text: text) == text)
        }
        let (status, trace) = keyboard.terminate()
        #expect(status == 0, "\(trace)")
        return Start(pixels: pixels, trace: trace)
    }

    static func picture(_ session: XSession) -> URL { session.cacheDirectory.appendingPathComponent("keypane/frame") }

    static func heading(_ session: XSession) throws -> String {
        let data = try Data(contentsOf: picture(session))
        return String(decoding: data.prefix(200).prefix { $0 != 0 }, as: UTF8.self)
    }

    @Test func theNextStartShowsThePictureThenDrawsTheSamePixels() throws {
        let session = try XSession()
        defer { session.stop() }
        let first = try Self.start(session)
        #expect(first.steps.contains("first frame drawn and flushed") && first.steps.contains("first frame's picture kept"),
                "\(first.trace)")
        let path = Self.picture(session).path
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let heading = try Self.heading(session)
        let fields = heading.split(separator: "\n")[1].split(separator: " ").compactMap { Int($0) }
        #expect(heading.hasPrefix("keypane frame 1\n") && fields.count == 6, "\(heading)")
        // 1280 by 320, at 32 bits a pixel on this server: a page of header, then the rows.
        #expect(fields.prefix(2) == [1280, 320] && Int(info.st_size) == 4096 + fields[4] * fields[1], "\(heading)")
        let written = info.st_mtim

        // The same frame: the picture goes up before any font is set up, the keys are drawn over it once
        // they are, to the very same pixels, and the keyboard types.
        let terminal = try Terminal(session: session)
        let second = try Self.start(session, typing: "hi", into: terminal)
        let steps = second.steps
        #expect(!steps.contains("first frame drawn and flushed"), "\(second.trace)")
        let put = try #require(steps.firstIndex(of: "first frame put from its picture"), "\(second.trace)")
        let fonts = try #require(steps.firstIndex(of: "fonts remembered"), "\(second.trace)")
        let drawn = try #require(steps.firstIndex(of: "first frame drawn over its picture"), "\(second.trace)")
        #expect(put < fonts && fonts < drawn, "\(second.trace)")
        let same = !first.pixels.isEmpty && second.pixels == first.pixels
        #expect(same, "the picture's start looks otherwise once drawn")
        // Nothing new to keep.
        #expect(!steps.contains("first frame's picture kept"), "\(second.trace)")
        #expect(stat(path, &info) == 0 && info.st_mtim.tv_sec == written.tv_sec && info.st_mtim.tv_nsec == written.tv_nsec)
    }

    /// Another frame (another theme) is drawn, not the picture, and becomes the picture kept; going back
    /// draws the first frame as it was.
    @Test func anotherFrameIsDrawnAndKept() throws {
        let session = try XSession()
        defer { session.stop() }
        let light = try Self.start(session)
        let lightHeading = try Self.heading(session)
        let dark = try Self.start(session, ["--theme", "dark"])
        #expect(dark.steps.contains("first frame drawn and flushed") && dark.steps.contains("first frame's picture kept"),
                "\(dark.trace)")
        let darker = !dark.pixels.isEmpty && dark.pixels != light.pixels
        #expect(darker)
        #expect(try Self.heading(session) != lightHeading)
        let again = try Self.start(session)
        #expect(again.steps.contains("first frame drawn and flushed"), "\(again.trace)")
        let lightAgain = again.pixels == light.pixels
        #expect(lightAgain)
        #expect(try Self.heading(session) == lightHeading)
    }

    /// A picture whose pixels are not the frame's (as after a font changed under it) is drawn over with the
    /// right ones; a damaged picture is not shown, and is no error; one that cannot be written is said in
    /// one line, and the keyboard works on.
    @Test func aWrongOrDamagedPictureNeverLeavesTheKeyboardWrong() throws {
        let session = try XSession()
        defer { session.stop() }
        let first = try Self.start(session)
        let url = Self.picture(session)
        var data = try Data(contentsOf: url)
        let size = data.count
        data.replaceSubrange(4096..<size, with: [UInt8](repeating: 0xFF, count: size - 4096))
        try data.write(to: url)
        let white = try Self.start(session)
        #expect(white.steps.contains("first frame put from its picture"), "\(white.trace)")
        let drawnOver = white.pixels == first.pixels
        #expect(drawnOver, "the white picture was not drawn over")

        try Data(data.prefix(5000)).write(to: url)
        let short = try Self.start(session)
        #expect(short.steps.contains("first frame drawn and flushed") && short.steps.contains("first frame's picture kept"),
                "\(short.trace)")
        let drawnInstead = short.pixels == first.pixels
        #expect(drawnInstead)
        #expect(try Data(contentsOf: url).count == size)
        // Nothing but the trace speaks of it.
        #expect(!short.trace.split(separator: "\n").contains { !$0.hasPrefix("keypane: trace:") }, "\(short.trace)")

        // Where the picture would be, a folder: it is not shown, one line says why it cannot be kept, and
        // the keyboard types.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let terminal = try Terminal(session: session)
        let unwritable = try Self.start(session, typing: "ok", into: terminal)
        let said = unwritable.trace.split(separator: "\n").filter { !$0.hasPrefix("keypane: trace:") }
        #expect(said.count == 1 && said[0].hasPrefix("keypane: cannot keep the keyboard's picture in \(url.path)"),
                "\(unwritable.trace)")
        let drawnAnyway = unwritable.pixels == first.pixels
        #expect(drawnAnyway)
        // Nothing left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
                == ["fonts", "frame"])
    }
}
