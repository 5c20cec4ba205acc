public import Typing

/// Turns the fields of X input events into `InputEvent`s. Pure functions of the event's values, so that
/// tests can build XI2 events that no test machine can make (there is no touch device under Xvfb).
public enum InputDecoding {
    /// XI2 event types for touches (XI 2.2).
    public static let touchBegin: Int32 = 18, touchUpdate: Int32 = 19, touchEnd: Int32 = 20
    /// XITouchPendingEnd: the touch has ended physically but is still owned by a grab.
    public static let touchPendingEndFlag: Int32 = 1 << 16

    /// A touch event: its type, its touch id (the event's detail), flags, and the position in the window.
    public static func touch(evtype: Int32, detail: Int32, flags: Int32, x: Double, y: Double,
                             time: Double) -> InputEvent? {
        let phase: InputEvent.Phase
        switch evtype {
        case touchBegin: phase = .began
        case touchUpdate: phase = flags & touchPendingEndFlag != 0 ? .ended : .moved
        case touchEnd: phase = .ended
        default: return nil
        }
        return InputEvent(touch: Int(detail), phase: phase, x: x, y: y, time: time)
    }

    /// Core pointer events: button 1 press and release, and motion with button 1 held.
    public enum CoreKind: Sendable { case buttonPress, buttonRelease, motion }

    /// Button 1 in a core event's state mask.
    public static let button1Mask: UInt32 = 1 << 8

    public static func pointer(_ kind: CoreKind, button: UInt32, state: UInt32, x: Int32, y: Int32,
                               time: Double) -> InputEvent? {
        let phase: InputEvent.Phase
        switch kind {
        case .buttonPress where button == 1: phase = .began
        case .buttonRelease where button == 1: phase = .ended
        case .motion where state & button1Mask != 0: phase = .moved
        default: return nil
        }
        return InputEvent(touch: InputEvent.pointer, phase: phase, x: Double(x), y: Double(y), time: time)
    }
}
