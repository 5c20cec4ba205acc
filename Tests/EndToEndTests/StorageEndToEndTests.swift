import Foundation
import Testing

/// The keyboard's state files on storage that refuses them: a full disk and a read-only one. Typing goes on,
/// the problem is said once in a line that names the file and the reason, and what was kept before is
/// left as it was (the new file is written beside it and renamed over it only when whole).
@Suite(.serialized) struct StorageEndToEndTests {
    enum Refusal: String, CaseIterable { case full, readOnly }

    /// Mounts a small tmpfs at the session's data folder (where learned words live), puts a learned-words
    /// file there, and makes it refuse writes: filled to the last byte, or mounted again read-only. The
    /// mount is undone when the test ends.
    static func refusingStorage(_ session: XSession, _ refusal: Refusal, keeping kept: String) throws -> URL {
        let folder = session.dataDirectory
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mount = try session.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", folder.path])
        try #require(mount.status == 0, "the test mounts a tmpfs (it runs as root): \(mount.errors)")
        let learned = folder.appendingPathComponent("keypane/learned-en")
        try FileManager.default.createDirectory(at: learned.deletingLastPathComponent(), withIntermediateDirectories: true)
        try kept.write(to: learned, atomically: false, encoding: .utf8)
        switch refusal {
        case .full:
            // Fill what is left: a file grown until the file system says no more.
            let filler = FileHandle(forWritingAtPath: folder.path + "/filler") ?? {
                FileManager.default.createFile(atPath: folder.path + "/filler", contents: nil)
                return FileHandle(forWritingAtPath: folder.path + "/filler")!
            }()
            let block = Data(repeating: 0, count: 4096)
            while (try? filler.write(contentsOf: block)) != nil {}
            try? filler.close()
        case .readOnly:
            let remount = try session.run("/bin/mount", ["-o", "remount,ro", folder.path])
            try #require(remount.status == 0, "\(remount.errors)")
        }
        return learned
    }

    @Test(arguments: Refusal.allCases)
    func learnedWordsOnStorageThatRefusesThem(_ refusal: Refusal) throws {
        let session = try XSession()
        defer {
            _ = try? session.run("/bin/umount", ["-l", session.dataDirectory.path])
            session.stop()
        }
        let kept = "keypane-learned 1\nclock\t5\nword\tzyzzyva\t3\t4\n"
        let learned = try Self.refusingStorage(session, refusal, keeping: kept)
        let terminal = try Terminal(session: session)
        let keyboard = try SuggestionsEndToEndTests.start(session, ["--no-autocorrection", "--autocapitalization", "none"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        var expected = ""
        // Two words, a rest long enough for the learned words to be written (3 s), twice over.
        for words in [["kept", "safe"], ["still", "typing"]] {
            for word in words {
                for character in word { keyboard.tap(letters.keys.first { $0.text == String(character) }!) }
                keyboard.tap(space)
                expected += word + " "
            }
            #expect(terminal.waitFor(text: expected) == expected, "\(refusal)")
            usleep(4_000_000)
        }
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        let reason = refusal == .full ? "No space left on device" : "Read-only file system"
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 1, "said once: \(messages)")
        #expect(lines.first?.hasPrefix("keypane: cannot keep the learned words: \(learned.path)") == true, "\(messages)")
        #expect(lines.first?.contains(reason) == true, "\(messages)")
        #expect(lines.first?.hasSuffix("typing goes on") == true, "\(messages)")
        // What was kept is as it was, and no half-written file is left beside it.
        #expect(try String(contentsOf: learned, encoding: .utf8) == kept)
        #expect(!FileManager.default.fileExists(atPath: learned.path + ".new"))
    }
}
