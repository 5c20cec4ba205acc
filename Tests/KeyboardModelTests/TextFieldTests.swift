import KeyboardModel
import Testing

@Suite struct TextFieldTests {
    @Test func whatTakesText() {
        #expect(TextField(editable: true).takesText)
        #expect(!TextField(editable: false).takesText)
        #expect(!TextField(editable: true, readOnly: true).takesText)
        #expect(TextField(role: .terminal, editable: false).takesText)
        #expect(TextField(role: .password, editable: false).takesText)
        #expect(!TextField(role: .password, readOnly: true).takesText)
    }

    @Test func passwordsAreSecretAndPlain() {
        for field in [TextField(role: .password), TextField(inputType: "PASSWORD")] {
            let choice = field.choice
            #expect(choice.type == .default)
            let traits = choice.traits.applied(to: TextTraits())
            #expect(traits == TextTraits(autocapitalization: .none, autocorrection: false, smartQuotes: false,
                                         smartDashes: false, secureEntry: true))
        }
    }

    @Test func browsersInputTypesChooseTheKeyboard() {
        let expected: [String: (KeyboardType, ReturnKeyType)] = [
            "email": (.email, .default), "url": (.url, .default), "tel": (.phonePad, .default),
            "number": (.numberPad, .default), "search": (.webSearch, .search), "text": (.default, .default),
        ]
        for (input, (type, returnKey)) in expected {
            let choice = TextField(inputType: input).choice
            #expect(choice.type == type && choice.returnKey == returnKey, "\(input)")
            #expect(choice.traits == TextTraits.Overrides(), "\(input): only a password changes the traits")
        }
    }

    @Test func terminalsSpinButtonsAndTextViews() {
        let terminal = TextField(role: .terminal).choice
        #expect(terminal.type == .desktop)
        #expect(terminal.traits.applied(to: TextTraits()) == .plain)
        #expect(TextField(role: .spinButton).choice.type == .numberPad)
    }

    /// A number field whose step is a fraction takes a decimal point; whole steps, or none known, do not.
    @Test func numberFieldsWithFractionalStepsGetTheDecimalPad() {
        for (step, type) in [(0.01, KeyboardType.decimalPad), (0.5, .decimalPad), (1, .numberPad), (5, .numberPad),
                             (0, .numberPad), (.nan, .numberPad)] {
            #expect(TextField(role: .spinButton, inputType: "number", step: step).choice.type == type, "\(step)")
            #expect(TextField(role: .spinButton, step: step).choice.type == type, "\(step)")
        }
        #expect(TextField(inputType: "number").choice.type == .numberPad)
        let view = TextField(multiLine: true).choice
        #expect(view.type == .default && view.returnKey == .default)
    }
}

@Suite struct FieldInViewTests {
    let keyboard = Rect(x: 0, y: 560, width: 1280, height: 240)

    @Test func aFieldAboveTheKeyboardStays() {
        #expect(Rect(x: 20, y: 400, width: 300, height: 30).scrollTarget(clearOf: keyboard) == nil)
        // A tall text area whose first lines show stays too.
        #expect(Rect(x: 20, y: 400, width: 300, height: 300).scrollTarget(clearOf: keyboard) == nil)
    }

    @Test func aFieldBehindTheKeyboardMovesAboveIt() throws {
        let target = try #require(Rect(x: 20, y: 700, width: 300, height: 30).scrollTarget(clearOf: keyboard))
        #expect(target == (20, 560 - 16 - 30))
        // Half hidden counts as hidden.
        #expect(Rect(x: 20, y: 540, width: 300, height: 30).scrollTarget(clearOf: keyboard) != nil)
        // Taller than the room above the keyboard: its top goes to the top of the screen.
        let tall = try #require(Rect(x: 20, y: 600, width: 300, height: 900).scrollTarget(clearOf: keyboard))
        #expect(tall == (20, 0))
    }

    @Test func aFieldBesideOrBelowAFloatingKeyboardStays() {
        let floating = Rect(x: 800, y: 300, width: 390, height: 260)
        #expect(Rect(x: 20, y: 400, width: 300, height: 30).scrollTarget(clearOf: floating) == nil)
        #expect(Rect(x: 900, y: 600, width: 300, height: 30).scrollTarget(clearOf: floating) == nil)
    }
}
