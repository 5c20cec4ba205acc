public import KeyboardModel

/// A fingerprint of a frame: everything the drawing of a keyboard depends on, so that a picture of a frame
/// kept from an earlier start (the host's snapshot of its first frame) is shown only for the very same
/// frame. FNV-1a over the values, each followed by a separator, in a fixed order.
public struct FrameDigest: Equatable, Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    public mutating func add(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0xFF)
    }

    public mutating func add(_ number: Int) {
        var bits = UInt64(bitPattern: Int64(number))
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    public mutating func add(_ number: Double) { add(Int(bitPattern: UInt(number.bitPattern))) }
    public mutating func add(_ flag: Bool) { mix(flag ? 1 : 0) }
    public mutating func add(_ text: String?) {
        add(text != nil)
        if let text { add(text) }
    }

    public mutating func add(_ rect: Rect) {
        for number in [rect.x, rect.y, rect.width, rect.height] { add(number) }
    }

    /// A set, in a fixed order.
    public mutating func add(_ numbers: KeySet) {
        add(numbers.count)
        for number in numbers { add(number) }
    }

    public mutating func add(_ texts: Set<String>) {
        add(texts.count)
        for text in texts.sorted() { add(text) }
    }
}

extension KeyboardRenderer {
    /// The digest of what `draw` puts on a surface for this geometry and state, with this renderer's theme
    /// and label size, and the floating keyboard's handle; `context` adds what else decides the pixels
    /// (the program, its fonts). Popups and a stroke's trail are counted, not described: a frame with either is not one to keep.
    ///
    /// Every stored property of the geometry, its keys and the state goes in, drawn or not (the tests
    /// hold the list to the types' properties), so a property added later cannot be forgotten here.
    public func frameDigest(of geometry: KeyboardGeometry, state: KeyboardState, handle: Rect?,
                            context: [String]) -> FrameDigest {
        var digest = FrameDigest()
        digest.add("keypane frame 1")
        context.forEach { digest.add($0) }
        digest.add(theme.name)
        digest.add(labelScale)
        digest.add(handle != nil)
        if let handle { digest.add(handle) }

        digest.add(geometry.layoutName)
        digest.add(geometry.type.rawValue)
        digest.add(geometry.layer)
        geometry.layers.forEach { digest.add($0) }
        for number in [geometry.width, geometry.height, geometry.gap.x, geometry.gap.y, geometry.margin.x,
                       geometry.margin.y, geometry.keyHeight] { digest.add(number) }
        digest.add(geometry.widthClass.rawValue)
        digest.add(geometry.keys.count)
        for key in geometry.keys {
            digest.add(key.rect)
            switch key.function {
            case .text(let text): digest.add("text " + text)
            case .keysym(let name): digest.add("keysym " + name)
            default: digest.add(key.function.actionName ?? "")
            }
            digest.add(key.label)
            digest.add(key.icon?.rawValue)
            digest.add(key.secondary)
            digest.add(key.alternates.count)
            key.alternates.forEach { digest.add($0) }
            switch key.style {
            case .character: digest.add(0)
            case .function: digest.add(1)
            case .prominent: digest.add(2)
            }
            digest.add(key.secondaryBelow)
            digest.add(key.flat)
        }

        digest.add(state.pressed)
        digest.add(state.shift.rawValue)
        digest.add(state.modifiers)
        digest.add(state.lockedModifiers)
        digest.add(state.dwell != nil)
        if let dwell = state.dwell {
            digest.add(dwell.key)
            digest.add(dwell.progress)
        }
        digest.add(state.scanned)
        digest.add(state.dwellPaused)
        digest.add(state.popups.count)
        digest.add(state.trail.points.count)
        digest.add(state.trackpad)
        digest.add(state.bar.count)
        for slot in state.bar {
            digest.add(slot.text)
            switch slot.look {
            case .plain: digest.add(0)
            case .typed: digest.add(1)
            case .correction: digest.add(2)
            }
        }
        return digest
    }
}
