/// One tap of a word: where the finger landed, in pixels on the keyboard, and the character the keyboard
/// typed for it. A character typed without a point (an accent from a popup, a scanned key) has none.
public struct Tap: Equatable, Sendable {
    public var x: Double?
    public var y: Double?
    public var character: Character

    public init(x: Double? = nil, y: Double? = nil, character: Character) {
        self.x = x
        self.y = y
        self.character = character
    }
}

/// Where the letters are: each letter key's centre, row and size, read off the keyboard on screen.
public struct KeyPlan: Equatable, Sendable {
    public struct Key: Equatable, Sendable {
        public var x: Double
        public var y: Double
        public var row: Int
        /// What meaning this letter costs beyond the distance: nothing for the key's own letter; for an
        /// accent the key offers when held (é on e), a little, as it takes a hold to type on purpose.
        public var penalty: Float
        public init(x: Double, y: Double, row: Int, penalty: Float = 0) {
            self.x = x
            self.y = y
            self.row = row
            self.penalty = penalty
        }
    }

    public var keys: [UInt16: Key]
    /// A letter key's width and height with its gap: the unit distances are measured in.
    public var keyWidth: Double
    public var keyHeight: Double

    public init(keys: [UInt16: Key] = [:], keyWidth: Double = 1, keyHeight: Double = 1) {
        self.keys = keys
        self.keyWidth = keyWidth
        self.keyHeight = keyHeight
    }
}

/// How far from a key's centre fingers land when they mean that key: a Gaussian in key widths and
/// heights, with a mean offset per row that the user's own taps teach (people hit below a key's
/// centre, and more so on the rows far from their thumbs).
public struct TouchModel: Equatable, Sendable {
    /// The spread, in key widths across and key heights down.
    public var sigmaX = 0.45
    public var sigmaY = 0.45
    /// The mean offset of taps from the key's centre, per row, in key units.
    public var rowOffsets: [Int: Offset] = [:]
    /// The most a tap's distance costs: past this, a tap is a slip to any key (a typo), not a near miss.
    public var substitution: Float = 7

    public struct Offset: Equatable, Sendable {
        public var x: Double
        public var y: Double
        /// How many taps taught it.
        public var taps: Int
        public init(x: Double = 0, y: Double = 0, taps: Int = 0) {
            self.x = x
            self.y = y
            self.taps = taps
        }
    }

    public init() {}

    /// The cost (a negative log likelihood, in nats, relative to a tap at the mean) of `tap` meaning the
    /// character `unit`.
    public func cost(_ tap: Tap, _ unit: UInt16, plan: KeyPlan) -> Float {
        cost(tap, typed: Self.unit(of: tap), unit, plan: plan)
    }

    /// The lower-case UTF-16 unit a tap typed, when it is one.
    static func unit(of tap: Tap) -> UInt16? {
        let typed = Array(tap.character.lowercased().utf16)
        return typed.count == 1 ? typed[0] : nil
    }

    func cost(_ tap: Tap, typed: UInt16?, _ unit: UInt16, plan: KeyPlan) -> Float {
        let exact = typed == unit
        guard let x = tap.x, let y = tap.y, let key = plan.keys[unit] else {
            return exact ? 0 : substitution
        }
        let offset = rowOffsets[key.row] ?? Offset()
        let dx = ((x - key.x) / plan.keyWidth - offset.x) / sigmaX
        let dy = ((y - key.y) / plan.keyHeight - offset.y) / sigmaY
        return min(Float((dx * dx + dy * dy) / 2) + key.penalty, substitution)
    }

    /// Learns from a tap that meant `unit`: the row's mean offset moves toward it, slowly, and a tap far
    /// off (a slip) teaches nothing.
    public mutating func learn(_ tap: Tap, meant unit: UInt16, plan: KeyPlan) {
        guard let x = tap.x, let y = tap.y, let key = plan.keys[unit] else { return }
        let dx = (x - key.x) / plan.keyWidth, dy = (y - key.y) / plan.keyHeight
        guard abs(dx) < 0.8, abs(dy) < 0.8 else { return }
        var offset = rowOffsets[key.row] ?? Offset()
        let rate = 1 / Double(min(offset.taps + 2, 500))
        offset.x += (dx - offset.x) * rate
        offset.y += (dy - offset.y) * rate
        offset.taps += 1
        // Bounded: the model shifts, it never moves a key's centre onto its neighbour.
        offset.x = max(-0.3, min(0.3, offset.x))
        offset.y = max(-0.3, min(0.3, offset.y))
        rowOffsets[key.row] = offset
    }
}
