internal import CAtspi
public import KeyboardModel

/// What a focused object is, as a `TextField`, from its application's answers about its role, states,
/// attributes and interfaces, asked all at once without waiting (`BusCall`); a spin button is asked for its
/// step too.
final class FieldDescription {
    private let done: ((field: TextField, hasText: Bool)?) -> Void
    private var role: UInt32?
    private var states: [UInt32]?
    private var attributes: [String: String]?
    private var interfaces: [String]?
    private var answers = 0
    private var failed = false

    private init(done: @escaping ((field: TextField, hasText: Bool)?) -> Void) {
        self.done = done
    }

    /// Asks about `object`; `done` gets the field and whether it has the Text interface, or nil when the
    /// application did not answer in time (then the keyboard stays as it is, rather than hiding from a
    /// field it could not ask about).
    static func read(_ object: OpaquePointer, _ lib: AccessibilityLibraries, timeout: Int32,
                     done: @escaping ((field: TextField, hasText: Bool)?) -> Void) {
        let description = FieldDescription(done: done)
        let base = UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiObject.self).pointee
        let id = base.app?.pointee.bus_name.flatMap { application in base.path.map { String(cString: application) + String(cString: $0) } }
        /// Asks one question; `keep` reads the answer into the description. Without an answer to a question
        /// that is `needed`, there is no description.
        func ask(_ method: String, needed: Bool, _ keep: @escaping (FieldDescription, Reply) -> Void) {
            guard let call = BusCall(lib: lib, object: object, interface: "org.a11y.atspi.Accessible", method: method) else {
                description.answered(failed: true, lib: lib, object: object, id: id, timeout: timeout)
                return
            }
            call.send([], timeout: timeout) { reply in
                if let reply { keep(description, reply) }
                description.answered(failed: needed && reply == nil, lib: lib, object: object, id: id, timeout: timeout)
            }
        }
        ask("GetRole", needed: true) { description, reply in description.role = reply.uint32 }
        ask("GetState", needed: true) { description, reply in description.states = reply.uint32s }
        ask("GetAttributes", needed: false) { description, reply in description.attributes = reply.stringDictionary }
        ask("GetInterfaces", needed: false) { description, reply in description.interfaces = reply.strings }
    }

    /// One of the four answers came; with the last, the field.
    private func answered(failed: Bool, lib: AccessibilityLibraries, object: OpaquePointer, id: String?, timeout: Int32) {
        answers += 1
        if failed { self.failed = true }
        guard answers == 4 else { return }
        // An object with the focus has states (FOCUSED among them): none means no answer.
        guard !failed, let role, let states, states.contains(where: { $0 != 0 }) else { return done(nil) }
        var field = TextField(editable: false)
        field.id = id
        switch Int32(bitPattern: role) {
        case ATSPI_ROLE_PASSWORD_TEXT: field.role = .password
        case ATSPI_ROLE_TERMINAL: field.role = .terminal
        case ATSPI_ROLE_SPIN_BUTTON: field.role = .spinButton
        default: field.role = .other
        }
        func has(_ state: AtspiStateType) -> Bool {
            let word = Int(state) / 32, bit = UInt32(state) % 32
            return states.indices.contains(word) && states[word] & (1 << bit) != 0
        }
        field.editable = has(ATSPI_STATE_EDITABLE)
        field.readOnly = has(ATSPI_STATE_READ_ONLY)
        field.multiLine = has(ATSPI_STATE_MULTI_LINE)
        field.inputType = attributes?["text-input-type"]?.lowercased()
        let interfaces = interfaces ?? []
        let hasText = interfaces.contains("org.a11y.atspi.Text")
        guard field.role == .spinButton, interfaces.contains("org.a11y.atspi.Value"),
              let step = BusCall(lib: lib, object: object, interface: "org.freedesktop.DBus.Properties", method: "Get") else {
            return done((field, hasText))
        }
        step.send([.string("org.a11y.atspi.Value"), .string("MinimumIncrement")], timeout: timeout) { [done] reply in
            field.step = reply?.double
            done((field, hasText))
        }
    }
}
