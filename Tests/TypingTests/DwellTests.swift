import KeyboardModel
import Testing
import Typing

/// Dwell: a pointer that rests on a key presses it, with a ring filling meanwhile.
@Suite struct DwellTests {
    static func dwelling(_ seconds: Double = 0.8) throws -> Harness {
        var k = try Harness()
        k.engine.timing.dwell = seconds
        return k
    }

    @Test func restingOnAKeyPressesItOnce() throws {
        var k = try Self.dwelling()
        let (x, y) = k.centre(of: "h")
        _ = k.engine.hover(x: x, y: y, time: k.now)
        #expect(k.engine.state.dwell?.progress == 0)
        k.wait(0.4)
        let half = try #require(k.engine.state.dwell)
        #expect(half.progress > 0.4 && half.progress < 0.6)
        k.wait(0.41)
        #expect(k.typed() == [.text("h")])
        #expect(k.engine.state.dwell == nil)
        // Resting on: nothing more, and no timer runs.
        k.wait(3)
        #expect(k.typed().isEmpty && k.engine.nextDeadline == nil)
        // Small moves within the key change nothing; off and back on presses again.
        _ = k.engine.hover(x: x + 2, y: y + 1, time: k.now)
        #expect(k.engine.nextDeadline == nil)
        let (ox, oy) = k.centre(of: "j")
        _ = k.engine.hover(x: ox, y: oy, time: k.now)
        k.wait(0.3)
        _ = k.engine.hover(x: x, y: y, time: k.now)
        k.wait(0.9)
        #expect(k.typed() == [.text("h")])
    }

    @Test func movingOffOrLeavingCancels() throws {
        var k = try Self.dwelling()
        let (x, y) = k.centre(of: "q")
        _ = k.engine.hover(x: x, y: y, time: k.now)
        k.wait(0.7)
        _ = k.engine.hoverEnded()
        k.wait(1)
        #expect(k.typed().isEmpty && k.engine.state.dwell == nil)
    }

    @Test func thePauseKeyStopsDwellButForItself() throws {
        var k = try Self.dwelling(0.5)
        let pause = try #require(k.engine.geometry.keys.firstIndex { $0.function == .dwellPause })
        let dismiss = try #require(k.engine.geometry.keys.firstIndex { $0.function == .dismiss })
        #expect(pause + 1 == dismiss && k.engine.geometry.keys[pause].label == "pause")
        func rest(on label: String) {
            let (x, y) = k.centre(of: label)
            _ = k.engine.hover(x: x, y: y, time: k.now)
            k.wait(0.6)
        }
        rest(on: "pause")
        #expect(k.engine.state.dwellPaused)
        rest(on: "a")
        #expect(k.typed().isEmpty)
        rest(on: "pause")
        #expect(!k.engine.state.dwellPaused)
        rest(on: "a")
        #expect(k.typed() == [.text("a")])
    }

    @Test func dwellPressesCountWithSlowKeysAndWithoutDwellThereIsNoPauseKey() throws {
        var k = try Self.dwelling(0.5)
        k.engine.timing.slowKeys = 1
        let (x, y) = k.centre(of: "z")
        _ = k.engine.hover(x: x, y: y, time: k.now)
        k.wait(0.6)
        #expect(k.typed() == [.text("z")])
        k.engine.timing.dwell = 0
        #expect(!k.engine.geometry.keys.contains { $0.function == .dwellPause })
        _ = k.engine.hover(x: x, y: y + 50, time: k.now)
        #expect(k.engine.nextDeadline == nil)
    }
}
