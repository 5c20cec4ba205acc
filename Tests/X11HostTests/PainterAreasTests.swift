import KeyboardModel
import Render
import TestSupport
import Testing
@testable import X11Host

/// The areas a change draws: a part of the window is restored, drawn over and shown once.
@Suite struct PainterAreasTests {
    @Test func anAreaInsideAnotherIsLeftOut() {
        let balloon = Rect(x: 10, y: 0, width: 60, height: 100)
        let key = Rect(x: 20, y: 50, width: 40, height: 50)
        let other = Rect(x: 100, y: 50, width: 40, height: 50)
        #expect(Painter.outermost([key, balloon, other]) == [balloon, other])
        #expect(Painter.outermost([other, other, key]) == [other, key])
        // Overlapping without one holding the other: both stay.
        let across = Rect(x: 50, y: 40, width: 60, height: 20)
        #expect(Painter.outermost([key, across]) == [key, across])
        #expect(Painter.outermost([]) == [])
    }

    /// A press of a letter draws its balloon; the balloon holds the key, so the press is one area.
    @Test(arguments: [(375, 260), (1024, 340)])
    func aLettersBalloonHoldsItsKey(width: Int, height: Int) throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: width, height: height)
        var letters = 0
        for (index, key) in geometry.keys.enumerated() {
            guard case .text(let text) = key.function, text.count == 1, text.first!.isLetter else { continue }
            letters += 1
            let keyArea = KeyboardRenderer.keyArea(key.rect)
            let balloon = KeyboardRenderer.keyArea(PopupLayout.rect(for: .preview(key: index, label: text), in: geometry))
            #expect(Painter.outermost([keyArea, balloon]) == [balloon], "\(text) at \(width)")
        }
        #expect(letters >= 26)
    }
}
