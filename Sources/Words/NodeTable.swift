/// The hypotheses of one layer of the decoder's search, one a trie node: an array of them in the order they
/// came, and a hash table with open addressing from a node's index to its place there. A `Dictionary`
/// hashed each index with SipHash, which guards against keys chosen to collide; these come from the
/// dictionary file, and hashing them was a sixth of a decode's instructions.
struct NodeTable: Sendable {
    /// The hypotheses, in the order their nodes were first offered.
    private(set) var all: [Decoder.Hypothesis] = []
    /// For each slot, the place in `all` of the node whose slot it is, or -1; at most half are taken.
    private var slots: [Int32]

    /// A table with room for `minimumCapacity` hypotheses before it grows.
    init(minimumCapacity: Int = 0) {
        slots = Array(repeating: -1, count: Self.slotCount(for: minimumCapacity))
        all.reserveCapacity(minimumCapacity)
    }

    var count: Int { all.count }

    subscript(node: UInt32) -> Decoder.Hypothesis? {
        var slot = home(of: node)
        while slots[slot] >= 0 {
            if all[Int(slots[slot])].node == node { return all[Int(slots[slot])] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Keeps `hypothesis` for its node unless the node has one that precedes it (`Hypothesis.precedes`, so
    /// that what is kept does not depend on the order of offers); true when it was kept.
    @discardableResult
    mutating func offer(_ hypothesis: Decoder.Hypothesis) -> Bool {
        if (all.count + 1) * 2 > slots.count { reserve(all.count * 2) }
        var slot = home(of: hypothesis.node)
        while slots[slot] >= 0 {
            let place = Int(slots[slot])
            if all[place].node == hypothesis.node {
                guard hypothesis.precedes(all[place]) else { return false }
                all[place] = hypothesis
                return true
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = Int32(all.count)
        all.append(hypothesis)
        return true
    }

    /// Room for `capacity` hypotheses in all, made at once rather than as the table fills.
    mutating func reserve(_ capacity: Int) {
        all.reserveCapacity(capacity)
        let wanted = Self.slotCount(for: capacity)
        guard wanted > slots.count else { return }
        slots = Array(repeating: -1, count: wanted)
        for (place, hypothesis) in all.enumerated() {
            var slot = home(of: hypothesis.node)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(place)
        }
    }

    /// Twice as many slots as hypotheses, a power of two.
    private static func slotCount(for capacity: Int) -> Int {
        var count = 16
        while count < capacity * 2 { count *= 2 }
        return count
    }

    /// A node's first slot: its index times 2^64 / φ, whose high bits spread neighbouring indices apart.
    private func home(of node: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(node) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slots.count - 1)
    }
}
