import Foundation
import TestSupport
import Testing

/// The settings file with random edits: keypane reads it, says each problem in a line of its own that
/// names the file, and goes on to its next step (here: a display that is not there, exit 1), or refuses
/// a file it cannot use with status 64. It never crashes. (make fuzz runs it longer.)
@Suite struct SettingsFuzzTests {
    static let settings = """
        # Keypane's settings
        keyboards = default, email, desktop
        type = email
        return-key = go
        theme = dark
        height = 35%
        label-size = 120
        suggestions = off
        autocorrection = on
        smart-quotes = yes
        volume = 40
        scan = auto
        scan-switch = F12
        scan-interval = 1.5
        dwell = 0
        long-press = 0.5
        layouts = /nonexistent/layouts
        """

    @Test func mutatedSettingsFilesAreReadOrNamed() throws {
        var fuzz = Fuzz()
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        var said = 0
        for _ in 0..<Fuzz.iterations(60) {
            let bytes = fuzz.mutate(Array(Self.settings.utf8))
            try Data(bytes).write(to: file)
            let result = try run(["--config", file.path, "--display", ":65000", "--no-sound"],
                                 environment: ["XDG_CONFIG_HOME": folder.path])
            #expect([1, 64].contains(result.status), "seed \(fuzz.seed): status \(result.status), \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(!lines.isEmpty, "seed \(fuzz.seed)")
            for line in lines {
                #expect(line.hasPrefix("keypane: "), "seed \(fuzz.seed): \(line)")
            }
            said += lines.filter { $0.contains(file.path) }.count
        }
        print("settings fuzz (seed \(fuzz.seed)): \(said) problems named with the file")
        #expect(said > 0)
    }
}
