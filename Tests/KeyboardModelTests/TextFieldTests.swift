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
        let view = TextField(multiLine: true).choice
        #expect(view.type == .default && view.returnKey == .default)
    }
}
