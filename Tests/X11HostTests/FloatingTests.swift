import Foundation
import KeyboardModel
import Testing
import X11Host

@Suite struct FloatingPlacementTests {
    let left = Monitor(name: "L", rect: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)
    let right = Monitor(name: "R", rect: Rect(x: 1920, y: 0, width: 1280, height: 1024), isPrimary: false)

    @Test func firstAppearsCentredAtTheBottom() {
        let size = FloatingPlacement.size(on: left.rect, rows: 4)
        #expect(size == (390, 222))
        let frame = FloatingPlacement.frame(at: nil, size: size, monitors: [left, right], fallback: left)
        #expect(frame == Rect(x: 765, y: 1080 - 222 - 24, width: 390, height: 222))
    }

    @Test func staysWhollyOnTheMonitorHoldingItsCentre() {
        let size = (width: 390, height: 222)
        // Inside: unchanged.
        #expect(FloatingPlacement.frame(at: (100, 100), size: size, monitors: [left, right], fallback: left)
                == Rect(x: 100, y: 100, width: 390, height: 222))
        // Across the edge between monitors, centre on the right one: pulled onto it.
        #expect(FloatingPlacement.frame(at: (1800, 900), size: size, monitors: [left, right], fallback: left)
                == Rect(x: 1920, y: 802, width: 390, height: 222))
        // Off every monitor: onto the fallback's nearest edge.
        #expect(FloatingPlacement.frame(at: (5000, -300), size: size, monitors: [left, right], fallback: left)
                == Rect(x: 1530, y: 0, width: 390, height: 222))
        // A monitor narrower than the keyboard: as much as fits, from its left edge.
        let small = Monitor(name: "S", rect: Rect(x: 0, y: 0, width: 320, height: 200), isPrimary: true)
        let tiny = FloatingPlacement.size(on: small.rect, rows: 4)
        #expect(tiny == (320, 200))
        #expect(FloatingPlacement.frame(at: (50, 50), size: tiny, monitors: [small], fallback: small)
                == Rect(x: 0, y: 0, width: 320, height: 200))
    }
}

@Suite struct PositionFileTests {
    /// A folder of the test's own, which it removes.
    func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("keypane-\(UUID().uuidString)").path
    }

    @Test func keepsAPositionAcrossRuns() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PositionFile(path: folder + "/a/b/position")
        #expect(try file.load() == nil)
        try file.save(x: -20, y: 340)
        let loaded = try #require(try file.load())
        #expect(loaded == (-20, 340))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".new"))
    }

    @Test func aFileThatSaysSomethingElseIsNamed() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PositionFile(path: folder + "/a/b/position")
        try FileManager.default.createDirectory(atPath: (file.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        for (text, problem) in [("12\n", "'12' is not a position"), ("", "empty"), ("1 2 3\n", "'1 2 3' is not")] {
            try text.write(toFile: file.path, atomically: true, encoding: .utf8)
            #expect(throws: PositionFile.Problem.self) { try file.load() }
            do { _ = try file.load() } catch { #expect(error.description.hasPrefix("\(file.path):1: ") && error.description.contains(problem)) }
        }
    }

    @Test func followsXDGStateHome() {
        let saved: [(String, String?)] = ["XDG_STATE_HOME", "HOME"].map { name in (name, getenv(name).map { String(cString: $0) }) }
        defer { for (name, value) in saved { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        setenv("XDG_STATE_HOME", "/somewhere/state", 1)
        #expect(PositionFile.standard()?.path == "/somewhere/state/keypane/floating-position")
        unsetenv("XDG_STATE_HOME")
        setenv("HOME", "/home/someone", 1)
        #expect(PositionFile.standard()?.path == "/home/someone/.local/state/keypane/floating-position")
    }
}
