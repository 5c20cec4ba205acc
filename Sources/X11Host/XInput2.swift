internal import CX11
internal import CXInput2

/// What the keyboard's X connections share of XInput 2: its opcode, once 2.2 is announced, and the
/// selection of event types for a window.
enum XInput2 {
    /// The extension's opcode on `display`, having told the server this client speaks 2.2 (touches); nil
    /// without it.
    static func opcode(_ display: OpaquePointer) -> Int32? {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return nil }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(display, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else { return nil }
        return opcode
    }

    /// Selects the event `types` of each device on `window`, replacing what was selected for those devices.
    static func select(_ display: OpaquePointer, window: UInt, _ masks: [(device: Int32, types: [Int32])]) {
        // Four bytes of bits a device, side by side in one buffer.
        var bits = [UInt8](repeating: 0, count: 4 * masks.count)
        for (index, mask) in masks.enumerated() {
            for type in mask.types { bits[4 * index + Int(type >> 3)] |= UInt8(1 << (type & 7)) }
        }
        bits.withUnsafeMutableBufferPointer { buffer in
            var selections = masks.indices.map { index in
                XIEventMask(deviceid: masks[index].device, mask_len: 4, mask: buffer.baseAddress! + 4 * index)
            }
            XISelectEvents(display, window, &selections, Int32(selections.count))
        }
    }
}
