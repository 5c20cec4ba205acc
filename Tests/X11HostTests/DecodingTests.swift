import KeyboardModel
import TestSupport
import Testing
import Typing
import X11Host

@Suite struct InputDecodingTests {
    @Test func touchesDecodeWithTheirIds() {
        let begin = InputDecoding.touch(evtype: 18, detail: 7, flags: 0, x: 10.5, y: 20, time: 1)
        #expect(begin == InputEvent(touch: 7, phase: .began, x: 10.5, y: 20, time: 1))
        #expect(InputDecoding.touch(evtype: 19, detail: 7, flags: 0, x: 11, y: 20, time: 2)?.phase == .moved)
        #expect(InputDecoding.touch(evtype: 20, detail: 7, flags: 0, x: 11, y: 20, time: 3)?.phase == .ended)
        // A pending end is an end for the keyboard.
        #expect(InputDecoding.touch(evtype: 19, detail: 7, flags: 1 << 16, x: 11, y: 20, time: 3)?.phase == .ended)
        #expect(InputDecoding.touch(evtype: 4, detail: 1, flags: 0, x: 0, y: 0, time: 0) == nil)
    }

    @Test func twoFingersAtOnceStayApart() throws {
        // One finger holds shift while another types, through the decoder and the typing engine.
        let library = try LayoutLibrary(directory: packageRoot + "/Assets/layouts")
        var engine = try TypingEngine(library: library, enabled: ["default"], width: 375, height: 260)
        let shift = engine.geometry.keys.first { $0.function == .shift }!.rect
        let events = [
            InputDecoding.touch(evtype: 18, detail: 1, flags: 0, x: Double(shift.x + 5), y: Double(shift.y + 5), time: 0),
            InputDecoding.touch(evtype: 18, detail: 2, flags: 0, x: 30, y: 20, time: 0.1),
            InputDecoding.touch(evtype: 20, detail: 2, flags: 0, x: 30, y: 20, time: 0.15),
            InputDecoding.touch(evtype: 18, detail: 3, flags: 0, x: 60, y: 20, time: 0.2),
            InputDecoding.touch(evtype: 20, detail: 3, flags: 0, x: 60, y: 20, time: 0.25),
            InputDecoding.touch(evtype: 20, detail: 1, flags: 0, x: Double(shift.x + 5), y: Double(shift.y + 5), time: 0.3),
        ]
        var actions: [KeyAction] = []
        for event in events { actions += engine.handle(event!).actions }
        #expect(actions == [.text("Q"), .text("W")])
        #expect(engine.state.shift == .off)
    }

    @Test func corePointerUsesButtonOne() {
        #expect(InputDecoding.pointer(.buttonPress, button: 1, state: 0, x: 3, y: 4, time: 0)?.phase == .began)
        #expect(InputDecoding.pointer(.buttonPress, button: 3, state: 0, x: 3, y: 4, time: 0) == nil)
        #expect(InputDecoding.pointer(.motion, button: 0, state: 1 << 8, x: 3, y: 4, time: 0)?.phase == .moved)
        #expect(InputDecoding.pointer(.motion, button: 0, state: 0, x: 3, y: 4, time: 0) == nil)
        #expect(InputDecoding.pointer(.buttonRelease, button: 1, state: 1 << 8, x: 3, y: 4, time: 0)?.touch == InputEvent.pointer)
    }
}

@Suite struct DockPlacementTests {
    let monitors = [Monitor(name: "A", rect: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: false),
                    Monitor(name: "B", rect: Rect(x: 1920, y: 0, width: 1280, height: 1024), isPrimary: true)]

    @Test func choosesNamedThenPrimaryThenFirst() {
        #expect(DockPlacement.choose(monitors).name == "B")
        #expect(DockPlacement.choose(monitors, named: "A").name == "A")
        #expect(DockPlacement.choose(monitors, named: "nope").name == "B")
        #expect(DockPlacement.choose([monitors[0]]).name == "A")
    }

    @Test func strutsCountFromTheRootEdges() {
        // The keyboard on B (shorter than the root, which is 1080 high).
        let frame = DockPlacement.frame(on: monitors[1].rect, height: 300)
        #expect(frame == Rect(x: 1920, y: 724, width: 1280, height: 300))
        #expect(DockPlacement.strut(frame: frame, rootHeight: 1080) == [0, 0, 0, 356, 0, 0, 0, 0, 0, 0, 1920, 3199])
    }

    @Test func heightSuitsTheOrientation() {
        func share(_ width: Int, _ height: Int, rows: Int = 4) -> Double {
            Double(DockPlacement.height(for: Rect(x: 0, y: 0, width: width, height: height), rows: rows)) / Double(height)
        }
        // A larger share of the height in portrait than in landscape.
        #expect(share(768, 1024) > share(1024, 768))
        #expect(share(800, 1280) > share(1280, 800))
        #expect(share(600, 800) > share(800, 600))
        // Rows stay within their bounds: a tall portrait monitor does not get giant keys...
        let tall = DockPlacement.height(for: Rect(x: 0, y: 0, width: 1080, height: 1920), rows: 4)
        #expect(tall == 4 * DockPlacement.rowHeights.upperBound)
        // ...a short one keeps keys that can be hit, and the keyboard never takes more than half...
        #expect(DockPlacement.height(for: Rect(x: 0, y: 0, width: 1280, height: 400), rows: 4) == 4 * 44)
        #expect(DockPlacement.height(for: Rect(x: 0, y: 0, width: 1920, height: 1080), rows: 5) == 324)
        // ...unless the smallest rows need more, on a tiny screen.
        #expect(DockPlacement.height(for: Rect(x: 0, y: 0, width: 640, height: 300), rows: 5) == 220)
        #expect(DockPlacement.height(for: Rect(x: 0, y: 0, width: 640, height: 200), rows: 5) == 200)
    }

    /// Where the monitor reports its size, keys stay at least 7 mm tall: on a dense small screen the rows
    /// grow past the usual share; on a tablet they are already big enough.
    @Test func keysStaySevenMillimetresWhereTheMonitorSaysItsSize() throws {
        let phone = Monitor(name: "DSI-1", rect: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true,
                            heightMillimetres: 68)
        let density = try #require(phone.pixelsPerMillimetre)
        let height = DockPlacement.height(for: phone.rect, rows: 4, pixelsPerMillimetre: density)
        #expect(Double(height) / 4 * 0.8 / density >= 7)
        #expect(height > DockPlacement.height(for: phone.rect, rows: 4))
        let tablet = Monitor(name: "eDP-1", rect: Rect(x: 0, y: 0, width: 1280, height: 800), isPrimary: true,
                             heightMillimetres: 135)
        #expect(DockPlacement.height(for: tablet.rect, rows: 4, pixelsPerMillimetre: tablet.pixelsPerMillimetre)
                == DockPlacement.height(for: tablet.rect, rows: 4))
        // A projector's 0 mm, or a size no screen has, says nothing.
        #expect(Monitor(name: "HDMI-1", rect: phone.rect, isPrimary: false, heightMillimetres: 0).pixelsPerMillimetre == nil)
        #expect(Monitor(name: "HDMI-1", rect: phone.rect, isPrimary: false, heightMillimetres: 1).pixelsPerMillimetre == nil)
    }
}
