import CX11
import Foundation
import Testing

/// The record of the labels' font ($XDG_CACHE_HOME/keypane/fonts): a start that uses it instead of reading
/// the whole font configuration draws the very same pixels, Latin labels and others alike.
@Suite(.serialized) struct FontRecordEndToEndTests {
    /// A keyboard with labels in Cyrillic and Greek, which the one-font configuration does not draw.
    static let mixed = """
        type number-pad
        title "Mixed"
        layers pad

        layer pad
        row a ж ü λ
        row _ 0 !BackSpace
        row @dismiss @globe !Return
        """

    /// What the keyboard's window shows, once it has stopped changing.
    static func settledPixels(_ session: XSession, _ keyboard: LiveKeyboard) -> [UInt8] {
        var last: [UInt8] = []
        _ = waitUntil {
            usleep(300_000)
            let now = pixels(session, keyboard.frame)
            defer { last = now }
            return !now.isEmpty && now == last
        }
        return last
    }

    static func pixels(_ session: XSession, _ frame: (x: Int, y: Int, width: Int, height: Int)) -> [UInt8] {
        guard let image = XGetImage(session.connection, session.root, Int32(frame.x), Int32(frame.y),
                                    UInt32(frame.width), UInt32(frame.height), ~0, ZPixmap) else { return [] }
        defer { _ = image.pointee.f.destroy_image(image) }
        let count = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(image.pointee.data).assumingMemoryBound(to: UInt8.self),
                                         count: count))
    }

    /// Starts the keyboard on the given keyboards, waits for its drawing to settle and ends it.
    static func run(_ session: XSession, keyboards: String) throws -> (pixels: [UInt8], trace: String) {
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", keyboards],
                                        environment: ["KEYPANE_TRACE": "1"])
        let record = session.cacheDirectory.appendingPathComponent("keypane/fonts").path
        #expect(waitUntil { FileManager.default.fileExists(atPath: record) })
        let pixels = settledPixels(session, keyboard)
        let (status, trace) = keyboard.terminate()
        #expect(status == 0)
        return (pixels, trace)
    }

    @Test func theRememberedFontDrawsTheSamePixels() throws {
        let session = try XSession()
        defer { session.stop() }
        let layouts = session.configDirectory.appendingPathComponent("keypane/layouts")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        try Self.mixed.write(to: layouts.appendingPathComponent("mixed.layout"), atomically: true, encoding: .utf8)
        let record = session.cacheDirectory.appendingPathComponent("keypane/fonts")

        // The first start reads the whole configuration and writes the record after its first frame.
        let first = try Self.run(session, keyboards: "default")
        #expect(!first.trace.contains("fonts remembered") && first.trace.contains("fonts recorded"), "\(first.trace)")
        let text = try String(contentsOf: record, encoding: .utf8)
        #expect(text.hasPrefix("keypane fonts 1\n") && text.contains("\nfont 0 /"), "\(text)")
        #expect(text.contains("\nstamp ") && text.contains("fonts.conf"), "\(text)")

        // The next uses it, and the Latin keyboard looks the same to the pixel.
        let second = try Self.run(session, keyboards: "default")
        #expect(second.trace.contains("fonts remembered") && !second.trace.contains("fonts recorded")
                && !second.trace.contains("whole font configuration read"), "\(second.trace)")
        let same = !first.pixels.isEmpty && second.pixels == first.pixels
        #expect(same)

        // Cyrillic and Greek labels make it read the whole configuration then: the same pixels as a start
        // without the record. (Without a picture of the last first frame, which would have the fonts set
        // up once it is shown: FrameSnapshotEndToEndTests.)
        try FileManager.default.removeItem(at: session.cacheDirectory.appendingPathComponent("keypane/frame"))
        let narrowFirst = try Self.run(session, keyboards: "mixed")
        #expect(narrowFirst.trace.contains("fonts remembered") && narrowFirst.trace.contains("whole font configuration read"),
                "\(narrowFirst.trace)")
        // Read on a thread while start-up went on, from before the window was made (the first keyboard's
        // labels said so), and in use for the first frame; and the record, which held, not written again.
        let steps = narrowFirst.trace.split(separator: "\n").map(String.init)
        let reading = steps.firstIndex { $0.hasSuffix("whole font configuration being read") }
        let read = steps.firstIndex { $0.hasSuffix("whole font configuration read") }
        let made = steps.firstIndex { $0.hasSuffix("window made") }
        let drawn = steps.firstIndex { $0.hasSuffix("first frame drawn and flushed") }
        #expect(reading != nil && read != nil && made != nil && drawn != nil && reading! < made! && read! < drawn!,
                "\(narrowFirst.trace)")
        #expect(!narrowFirst.trace.contains("fonts recorded"))
        try FileManager.default.removeItem(at: record)
        let whole = try Self.run(session, keyboards: "mixed")
        // Its record written, a start without one keeps the whole configuration for labels the one font
        // does not draw.
        #expect(whole.trace.contains("fonts recorded") && !whole.trace.contains("fonts narrowed"), "\(whole.trace)")
        let sameNarrow = !whole.pixels.isEmpty && narrowFirst.pixels == whole.pixels, other = whole.pixels != first.pixels
        #expect(sameNarrow && other)
    }

    /// A start without a record takes the one-font configuration once it has written the record, as later
    /// starts do (letting the whole one go), and draws the same pixels with it: a keyboard drawn again after
    /// a visit to another looks as the first frame, drawn with the whole configuration, did.
    @Test func aFirstStartDrawsWithItsRecordOnceWritten() throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default,desktop"],
                                        environment: ["KEYPANE_TRACE": "1"])
        let record = session.cacheDirectory.appendingPathComponent("keypane/fonts").path
        #expect(waitUntil { FileManager.default.fileExists(atPath: record) })
        let first = Self.settledPixels(session, keyboard)
        #expect(try session.run(keypanePath, ["set", "--type", "desktop"]).status == 0)
        let desktop = Self.settledPixels(session, keyboard)
        #expect(try session.run(keypanePath, ["set", "--type", "default"]).status == 0)
        let again = Self.settledPixels(session, keyboard)
        let (status, trace) = keyboard.terminate()
        #expect(status == 0)
        #expect(trace.contains("font configuration read") && trace.contains("fonts recorded")
                && trace.contains("fonts narrowed to their new record"), "\(trace)")
        let drawnAgain = !desktop.isEmpty && desktop != first, same = !first.isEmpty && again == first
        #expect(drawnAgain && same)
    }

    /// The record names the colour font emoji come from, and a start that uses it draws the emoji
    /// keyboard without the whole configuration, to the pixel as one that read it.
    @Test func theRememberedEmojiFontDrawsTheSameEmoji() throws {
        let session = try XSession()
        defer { session.stop() }
        let whole = try Self.run(session, keyboards: "emoji")
        #expect(whole.trace.contains("fonts recorded"), "\(whole.trace)")
        let record = session.cacheDirectory.appendingPathComponent("keypane/fonts")
        let text = try String(contentsOf: record, encoding: .utf8)
        #expect(text.contains("\nemoji 0 /") && text.contains("NotoColorEmoji"), "\(text)")
        // Under the load of the other tests a start's drawing has once settled late: up to three starts,
        // each of which must use the record; black-and-white emoji would differ in every one.
        var same = false
        for _ in 0..<3 where !same {
            let narrow = try Self.run(session, keyboards: "emoji")
            #expect(narrow.trace.contains("fonts remembered") && !narrow.trace.contains("whole font configuration read"),
                    "\(narrow.trace)")
            same = !whole.pixels.isEmpty && narrow.pixels == whole.pixels
        }
        #expect(same)
    }

    /// A record that no longer holds (a configuration file it came from has changed) is not used, and is
    /// written again; a damaged one is no error either.
    @Test func aRecordThatNoLongerHoldsIsMadeAgain() throws {
        let session = try XSession()
        defer { session.stop() }
        let record = session.cacheDirectory.appendingPathComponent("keypane/fonts")
        _ = try Self.run(session, keyboards: "default")
        // Point one stamp at a file of the session's own, then change that file.
        let file = session.directory.appendingPathComponent("fonts-test.conf")
        try "one\n".write(to: file, atomically: false, encoding: .utf8)
        let text = try String(contentsOf: record, encoding: .utf8)
        let stamp = try #require(text.split(separator: "\n").first { $0.hasPrefix("stamp ") })
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        let changed = text.replacingOccurrences(
            of: String(stamp) + "\n",
            with: "stamp \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino) \(info.st_size) \(file.path)\n")
        try changed.write(to: record, atomically: true, encoding: .utf8)
        let held = try Self.run(session, keyboards: "default")
        #expect(held.trace.contains("fonts remembered"), "\(held.trace)")
        try "two, longer\n".write(to: file, atomically: false, encoding: .utf8)
        let stale = try Self.run(session, keyboards: "default")
        #expect(!stale.trace.contains("fonts remembered") && stale.trace.contains("fonts recorded"), "\(stale.trace)")
        #expect(try String(contentsOf: record, encoding: .utf8) != changed)

        try "keypane fonts 1\nfont zero\n".write(to: record, atomically: true, encoding: .utf8)
        let damaged = try Self.run(session, keyboards: "default")
        #expect(damaged.trace.contains("fonts recorded"), "\(damaged.trace)")
        // Not worth a message: nothing but the trace speaks of fonts.
        #expect(!damaged.trace.split(separator: "\n").contains { !$0.hasPrefix("keypane: trace:") && $0.contains("font") },
                "\(damaged.trace)")
        #expect(try String(contentsOf: record, encoding: .utf8).hasPrefix("keypane fonts 1\nsetup "))
    }
}
