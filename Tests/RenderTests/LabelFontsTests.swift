import CPangoFc
import Foundation
@testable import Render
import Testing

extension Rendering {
    /// The record of the labels' font (`LabelFonts.Record`): read back as written, and used only while
    /// everything it came from is as it was.
    struct LabelFontsTests {
        static let emojiFont = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

        static func record(stamping paths: [String], emoji: String? = emojiFont) -> LabelFonts.Record {
            LabelFonts.Record(
                setup: LabelFonts.Record.currentSetup(), file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                index: 0, family: "DejaVu Sans", emoji: emoji.map { ($0, 0, "Noto Color Emoji") },
                settings: [("antialias", [.bool(true)]), ("hintstyle", [.int(1)]), ("minspace", [.double(0.5)]),
                           ("fontfeatures", [.string("liga & <kern>"), .string("ss01")])],
                stamps: paths.map { .init(path: $0, state: LabelFonts.fileState(of: $0)) })
        }

        @Test func aRecordReadsBackAsWritten() throws {
            let record = Self.record(stamping: ["/etc/fonts/fonts.conf", "/no/such/file with spaces"])
            #expect(record.stamps[1].state == nil)
            let read = try #require(LabelFonts.Record(parsing: record.text))
            #expect(read == record)
            #expect(read.emoji?.file == Self.emojiFont && record.text.contains("\nemoji 0 \(Self.emojiFont)\nemoji-family Noto Color Emoji\n"))
            let withoutEmoji = Self.record(stamping: [], emoji: nil)
            #expect(LabelFonts.Record(parsing: withoutEmoji.text) == withoutEmoji && withoutEmoji != Self.record(stamping: []))
            // The rules say the settings as fontconfig's XML, its special characters escaped.
            #expect(record.rules().contains("<edit name=\"fontfeatures\" mode=\"assign\" binding=\"strong\"><string>liga &amp; &lt;kern&gt;</string><string>ss01</string></edit>"))
            #expect(record.rules().contains("<bool>true</bool>") && record.rules().contains("<int>1</int>"))
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

        /// Only text the record was made for (Latin, and what all scripts share) is drawn with the one font;
        /// emoji when it has their colour font too.
        @Test func otherScriptsNeedTheWholeConfiguration() {
            for emoji in [false, true] {
                #expect(LabelFonts.narrowCovers("Grüße, ça va? 123 ⌫ € — “q”", emoji: emoji))
                #expect(!LabelFonts.narrowCovers("мир", emoji: emoji))
                #expect(!LabelFonts.narrowCovers("αβγ", emoji: emoji))
                #expect(!LabelFonts.narrowCovers("日本", emoji: emoji))
                #expect(!LabelFonts.narrowCovers("😀 мир", emoji: emoji))
                for text in ["😀", "👨‍👩‍👧", "🇩🇪", "1️⃣", "👋🏽", "❤️"] {
                    #expect(LabelFonts.narrowCovers(text, emoji: emoji) == emoji, "\(text)")
                }
            }
        }

        /// The one-font configuration takes the emoji font the record names, and does without it when it
        /// cannot have it: the labels keep their font either way.
        @Test func theEmojiFontJoinsTheOneFontConfigurationWhenItCan() throws {
            let (config, hasEmoji) = try #require(Self.record(stamping: []).configuration())
            FcConfigDestroy(config)
            #expect(hasEmoji)
            let (other, otherHasEmoji) = try #require(Self.record(stamping: [], emoji: "/no/such/emoji.ttf").configuration())
            FcConfigDestroy(other)
            #expect(!otherHasEmoji)
        }
    }
}
