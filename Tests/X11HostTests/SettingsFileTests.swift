import Foundation
import KeyboardCore
import Testing

/// The settings file as the settings panel writes it: one line changed, everything else kept.
@Suite struct SettingsFileTests {
    static let text = """
        # Keypane settings: kept by hand
        theme = light   # for the day
        this line is wrong
        sound = on
        unknown-setting = 3

        """

    @Test func aChangedSettingKeepsItsLineAndComment() {
        let edited = SettingsFile.edited(Self.text, setting: "theme", to: "dark")
        #expect(edited == Self.text.replacingOccurrences(of: "theme = light   # for the day", with: "theme = dark   # for the day"))
    }

    @Test func aNewSettingIsAddedAtTheEnd() {
        let edited = SettingsFile.edited(Self.text, setting: "languages", to: "en-US, de")
        #expect(edited == Self.text + "languages = en-US, de\n")
        #expect(SettingsFile.edited("", setting: "sound", to: "off") == "sound = off\n")
        #expect(SettingsFile.edited("# only a comment", setting: "sound", to: "off") == "# only a comment\nsound = off\n")
    }

    @Test func theLastOfSeveralLinesIsTheOneChanged() {
        let text = "sound = on\nsound = on # again\n"
        #expect(SettingsFile.edited(text, setting: "sound", to: "off") == "sound = on\nsound = off # again\n")
    }

    @Test func noValueTakesEveryLineOfTheSettingOut() {
        let text = "height = 30%\n# keep\nheight = 40%\n"
        #expect(SettingsFile.edited(text, setting: "height", to: nil) == "# keep\n")
    }

    @Test func aCommentedOutSettingIsNotTheSetting() {
        let text = "# sound = on\n"
        #expect(SettingsFile.edited(text, setting: "sound", to: "off") == "# sound = on\nsound = off\n")
    }

    @Test func theFileIsWrittenWholeAndPrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("keypane/config").path
        let file = SettingsFile(path: path)
        // No file yet: made, with its folder.
        try file.change([(name: "sound", value: "off")])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "sound = off\n")
        try Self.text.write(toFile: path, atomically: true, encoding: .utf8)
        try file.change([(name: "theme", value: "dark"), (name: "sound", value: "off")])
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("this line is wrong\n") && written.contains("unknown-setting = 3\n"))
        #expect(written.contains("theme = dark   # for the day\n") && written.contains("sound = off\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: path + ".new"))
    }

    @Test func aFileThatCannotBeReadIsNotWrittenOver() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the file should be: it cannot be read, and stays.
        let path = folder.appendingPathComponent("config").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try SettingsFile(path: path).change([(name: "sound", value: "off")]) }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
    }
}

extension SettingsFileTests {
    /// The last setting taken out leaves an empty file, and the next one added is its first line.
    @Test func theLastSettingTakenOutLeavesAnEmptyFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config").path
        let file = SettingsFile(path: path)
        try file.change([(name: "scan", value: "auto")])
        try file.change([(name: "scan", value: nil)])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
        try file.change([(name: "dwell", value: "0.8")])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "dwell = 0.8\n")
    }
}
