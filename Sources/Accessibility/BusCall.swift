internal import CAtspi

/// A method call to an application over the accessibility bus that does not wait for the answer: the
/// answer (or the error or time-out that stands for it) reaches `answered` later, in Keypane's loop, when
/// GLib's main context, which serves libatspi's connection, dispatches it. An application that is busy or
/// stopped costs the keyboard nothing.
struct BusCall {
    let lib: AccessibilityLibraries
    let destination: String
    let path: String
    let interface: String
    let method: String

    /// An argument of the call.
    enum Argument {
        case string(String)
        case int32(Int32)
    }

    /// Sends the call with its arguments; `answered` gets the reply, or nil for an error, a time-out or a
    /// call that could not be sent.
    func send(_ arguments: [Argument], timeout: Int32, answered: @escaping (Reply?) -> Void) {
        guard let bus = lib.accessibilityBus(),
              let message = lib.newMethodCall(destination, path, interface, method) else {
            answered(nil)
            return
        }
        defer { lib.messageUnref(message) }
        var iterator = DBusMessageIter()
        lib.iterInitAppend(message, &iterator)
        for argument in arguments {
            switch argument {
            case .string(let text):
                text.withCString { pointer in
                    var string: UnsafePointer<CChar>? = pointer
                    _ = lib.iterAppendBasic(&iterator, Self.type("s"), &string)
                }
            case .int32(var number):
                _ = lib.iterAppendBasic(&iterator, Self.type("i"), &number)
            }
        }
        var pending: OpaquePointer?
        guard lib.sendWithReply(bus, message, &pending, timeout) != 0, let pending else {
            answered(nil)
            return
        }
        let box = Unmanaged.passRetained(Waiting(lib: lib, answered: answered)).toOpaque()
        let notified: DBusPendingCallNotifyFunction = { pending, context in
            guard let context else { return }
            let waiting = Unmanaged<Waiting>.fromOpaque(context).takeUnretainedValue()
            let call = OpaquePointer(pending)
            let reply = waiting.lib.pendingStealReply(call)
            defer { if let reply { waiting.lib.messageUnref(reply) } }
            let failed = reply == nil || waiting.lib.messageType(reply) == DBUS_MESSAGE_TYPE_ERROR
            waiting.answered(failed ? nil : Reply(lib: waiting.lib, message: reply))
        }
        let free: DBusFreeFunction = { context in
            guard let context else { return }
            Unmanaged<Waiting>.fromOpaque(context).release()
        }
        if lib.pendingSetNotify(pending, notified, box, free) == 0 {
            Unmanaged<Waiting>.fromOpaque(box).release()
            lib.pendingCancel(pending)
            answered(nil)
        }
        // The connection keeps the call until it is answered or times out.
        lib.pendingUnref(pending)
    }

    private final class Waiting {
        let lib: AccessibilityLibraries
        let answered: (Reply?) -> Void
        init(lib: AccessibilityLibraries, answered: @escaping (Reply?) -> Void) {
            self.lib = lib
            self.answered = answered
        }
    }

    static func type(_ code: Character) -> Int32 { Int32(code.asciiValue!) }
}

/// A reply's first value, read while the reply is handled (the message is let go after).
struct Reply {
    let lib: AccessibilityLibraries
    let message: OpaquePointer?

    /// The first value as a whole number, looking inside a variant (a property's value).
    var int32: Int32? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0 else { return nil }
        var value = iterator
        if lib.iterArgType(&iterator) == BusCall.type("v") { lib.iterRecurse(&iterator, &value) }
        guard lib.iterArgType(&value) == BusCall.type("i") else { return nil }
        var number: Int32 = 0
        lib.iterBasic(&value, &number)
        return number
    }

    /// The first value as a string.
    var string: String? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0, lib.iterArgType(&iterator) == BusCall.type("s") else { return nil }
        var pointer: UnsafePointer<CChar>?
        lib.iterBasic(&iterator, &pointer)
        return pointer.map { String(cString: $0) }
    }
}
