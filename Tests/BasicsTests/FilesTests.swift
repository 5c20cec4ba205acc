import Basics
import Foundation
import Testing

struct FilesTests {
    @Test func readsAFileWholeAndAProcFileThatSaysNoSize() throws {
        let path = NSTemporaryDirectory() + "keypane-files-\(getpid())"
        defer { unlink(path) }
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(try Files.readBytes(path) == bytes)
        // /proc says a size of 0 for its files: read in steps all the same.
        let cmdline = try Files.readBytes("/proc/self/cmdline")
        #expect(cmdline.last == 0 && cmdline.count > 1)
    }

    @Test func aFileThatCannotBeReadIsNamed() {
        #expect(throws: FileError(path: "/nonexistent/x", reason: "No such file or directory")) {
            try Files.readBytes("/nonexistent/x")
        }
        #expect("\(FileError(path: "/a", reason: "why"))" == "/a: cannot read the file: why")
    }

    @Test func listsAFoldersFilesByEnding() throws {
        let folder = NSTemporaryDirectory() + "keypane-names-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["b.layout", "a.layout", ".hidden.layout", ".layout", "c.txt"] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
        }
        #expect(Files.names(in: folder, ending: ".layout") == ["a", "b"])
        #expect(Files.names(in: folder + "/missing", ending: ".layout") == nil)
    }

    @Test func readsTheEnvironmentsNamedValues() {
        setenv("KEYPANE_BASICS_TEST", "yes", 1)
        unsetenv("KEYPANE_BASICS_UNSET")
        #expect(ProcessFacts.environment(["KEYPANE_BASICS_TEST", "KEYPANE_BASICS_UNSET"]) == ["KEYPANE_BASICS_TEST": "yes"])
    }
}
