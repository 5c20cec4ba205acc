import Foundation
@testable import Render
import Testing

/// The record of the labels' font (`LabelFonts.Record`): read back as written, and used only while
/// everything it came from is as it was.
struct LabelFontsTests {
    static func record(stamping paths: [String]) -> LabelFonts.Record {
        LabelFonts.Record(
            setup: LabelFonts.Record.currentSetup(), file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            index: 0, family: "DejaVu Sans",
            settings: [("antialias", [.bool(true)]), ("hintstyle", [.int(1)]), ("minspace", [.double(0.5)]),
                       ("fontfeatures", [.string("liga & <kern>"), .string("ss01")])],
            stamps: paths.map { .init(path: $0, state: LabelFonts.Record.state(of: $0)) })
    }

    @Test func aRecordReadsBackAsWritten() throws {
        let record = Self.record(stamping: ["/etc/fonts/fonts.conf", "/no/such/file with spaces"])
        #expect(record.stamps[1].state == nil)
        let read = try #require(LabelFonts.Record(parsing: record.text))
        #expect(read == record)
        // The rules say the settings as fontconfig's XML, its special characters escaped.
        #expect(record.rules.contains("<edit name=\"fontfeatures\" mode=\"assign\" binding=\"strong\"><string>liga &amp; &lt;kern&gt;</string><string>ss01</string></edit>"))
        #expect(record.rules.contains("<bool>true</bool>") && record.rules.contains("<int>1</int>"))
    }

    @Test func aDamagedOrOtherRecordIsNotRead() {
        let text = Self.record(stamping: ["/etc/fonts/fonts.conf"]).text
        #expect(LabelFonts.Record(parsing: String(text.dropLast(3))) == nil)            // cut short
        #expect(LabelFonts.Record(parsing: "keypane fonts 2\n" + text.drop { $0 != "\n" }.dropFirst()) == nil)
        #expect(LabelFonts.Record(parsing: text.replacingOccurrences(of: "set hintstyle int 1", with: "set hintstyle int one")) == nil)
        #expect(LabelFonts.Record(parsing: "") == nil)
    }

    /// A file the answer came from that changes, or a place that was missing and now is there, ends the
    /// record's use; so does another language.
    @Test func aRecordHoldsOnlyWhileWhatItCameFromIsUnchanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("label-fonts-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("fonts.conf"), later = folder.appendingPathComponent("user.conf")
        try "<fontconfig/>\n".write(to: config, atomically: false, encoding: .utf8)
        let record = Self.record(stamping: [config.path, later.path])
        #expect(record.holds())
        try "<fontconfig><dir>/x</dir></fontconfig>\n".write(to: config, atomically: false, encoding: .utf8)
        #expect(!record.holds())
        let again = Self.record(stamping: [config.path, later.path])
        #expect(again.holds())
        try "<fontconfig/>\n".write(to: later, atomically: false, encoding: .utf8)
        #expect(!again.holds())
        var otherLanguage = Self.record(stamping: [config.path, later.path])
        otherLanguage.setup[1] = "setup language ja-jp"
        #expect(!otherLanguage.holds())
    }

    /// Only text the record was made for (Latin, and what all scripts share) is drawn with the one font.
    @Test func otherScriptsNeedTheWholeConfiguration() {
        #expect(LabelFonts.narrowCovers("Grüße, ça va? 123 ⌫ € — “q”"))
        #expect(!LabelFonts.narrowCovers("мир"))
        #expect(!LabelFonts.narrowCovers("αβγ"))
        #expect(!LabelFonts.narrowCovers("日本"))
    }
}
