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

    /// A call to an accessible object: `object`'s application and path.
    init?(lib: AccessibilityLibraries, object: OpaquePointer, interface: String, method: String) {
        let base = UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtspiObject.self).pointee
        guard let application = base.app?.pointee.bus_name, let path = base.path else { return nil }
        self.init(lib: lib, destination: String(cString: application), path: String(cString: path),
                  interface: interface, method: method)
    }

    init(lib: AccessibilityLibraries, destination: String, path: String, interface: String, method: String) {
        self.lib = lib
        self.destination = destination
        self.path = path
        self.interface = interface
        self.method = method
    }

    /// An argument of the call.
    enum Argument {
        case string(String)
        case int32(Int32)
        case uint32(UInt32)
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
            case .uint32(var number):
                _ = lib.iterAppendBasic(&iterator, Self.type("u"), &number)
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
            let reply = waiting.lib.pendingStealReply(pending)
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

    /// The first value as an unsigned whole number.
    var uint32: UInt32? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0, lib.iterArgType(&iterator) == BusCall.type("u") else { return nil }
        var number: UInt32 = 0
        lib.iterBasic(&iterator, &number)
        return number
    }

    /// The first value as a number, looking inside a variant.
    var double: Double? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0 else { return nil }
        var value = iterator
        if lib.iterArgType(&iterator) == BusCall.type("v") { lib.iterRecurse(&iterator, &value) }
        guard lib.iterArgType(&value) == BusCall.type("d") else { return nil }
        var number = 0.0
        lib.iterBasic(&value, &number)
        return number
    }

    /// The values of the first value, an array, each read by `element` (nil for an element it refuses).
    private func array<Element>(_ element: (inout DBusMessageIter) -> Element?) -> [Element]? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0, lib.iterArgType(&iterator) == BusCall.type("a") else { return nil }
        var item = DBusMessageIter()
        lib.iterRecurse(&iterator, &item)
        var elements: [Element] = []
        while lib.iterArgType(&item) != 0 {
            if let value = element(&item) { elements.append(value) }
            if lib.iterNext(&item) == 0 { break }
        }
        return elements
    }

    private func basicString(_ iterator: inout DBusMessageIter) -> String? {
        guard lib.iterArgType(&iterator) == BusCall.type("s") else { return nil }
        var pointer: UnsafePointer<CChar>?
        lib.iterBasic(&iterator, &pointer)
        return pointer.map { String(cString: $0) }
    }

    /// The first value as an array of unsigned numbers (a state set's two words).
    var uint32s: [UInt32]? {
        array { item in
            guard lib.iterArgType(&item) == BusCall.type("u") else { return nil }
            var number: UInt32 = 0
            lib.iterBasic(&item, &number)
            return number
        }
    }

    /// The first value as an array of strings (the interfaces an object has).
    var strings: [String]? { array { basicString(&$0) } }

    /// The first value as a dictionary of strings (an object's attributes).
    var stringDictionary: [String: String]? {
        array { entry -> (String, String)? in
            guard lib.iterArgType(&entry) == BusCall.type("e") else { return nil }
            var field = DBusMessageIter()
            lib.iterRecurse(&entry, &field)
            guard let key = basicString(&field), lib.iterNext(&field) != 0, let value = basicString(&field) else { return nil }
            return (key, value)
        }.map { Dictionary($0, uniquingKeysWith: { $1 }) }
    }

    /// The first value as a structure of whole numbers (a rectangle's x, y, width and height).
    var int32s: [Int32]? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0, lib.iterArgType(&iterator) == BusCall.type("r") else { return nil }
        var field = DBusMessageIter()
        lib.iterRecurse(&iterator, &field)
        var numbers: [Int32] = []
        while lib.iterArgType(&field) == BusCall.type("i") {
            var number: Int32 = 0
            lib.iterBasic(&field, &number)
            numbers.append(number)
            if lib.iterNext(&field) == 0 { break }
        }
        return numbers
    }

    /// The first value as a truth.
    var bool: Bool? {
        var iterator = DBusMessageIter()
        guard lib.iterInit(message, &iterator) != 0, lib.iterArgType(&iterator) == BusCall.type("b") else { return nil }
        var value: dbus_bool_t = 0
        lib.iterBasic(&iterator, &value)
        return value != 0
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
