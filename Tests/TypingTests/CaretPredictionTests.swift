import Testing
import Typing

@Suite struct CaretPredictionTests {
    @Test func theKeyboardsOwnTypingExplainsTheCaretsMoves() {
        var caret = CaretPrediction()
        #expect(!caret.explains(0))
        caret.read(at: 5)
        caret.sent(.text("a"))
        #expect(caret.explains(6))
        // A smart change: a delete and two characters.
        caret.sent(.keysym("BackSpace", modifiers: []))
        caret.sent(.text(". "))
        #expect(caret.explains(7))
        // Characters, not bytes or grapheme clusters: é as one scalar, a flag as two.
        caret.sent(.text("é🇫🇷"))
        #expect(caret.explains(10))
        // The application moved it elsewhere (a click): not explained.
        #expect(!caret.explains(3))
    }

    @Test func keysThatMoveTheCaretByUnknownAmountsMakeItUnknown() {
        var caret = CaretPrediction()
        caret.read(at: 2)
        caret.sent(.keysym("Left", modifiers: []))
        #expect(caret.expected == nil)
        caret.read(at: 2)
        caret.sent(.keysym("BackSpace", modifiers: ["Control_L"]))
        #expect(caret.expected == nil)
        caret.read(at: 0)
        caret.sent(.keysym("BackSpace", modifiers: []))
        #expect(caret.explains(0))
        caret.sent(.nextKeyboard)
        #expect(caret.explains(0))
        caret.forget()
        #expect(caret.expected == nil)
    }
}
