/// A set of key indices, a bit per key: what is pressed, highlighted or to be drawn again. Each tap adds
/// and removes a few keys, which in a `Set<Int>` meant hashing and allocating storage every time; the
/// first 64 keys (all of a phone layout's) have a word of their own, so they allocate nothing.
public struct KeySet: SetAlgebra, Sequence, Hashable, Sendable, CustomStringConvertible {
    /// Keys 0 to 63.
    private var low: UInt64 = 0
    /// Keys from 64 on, 64 a word; no trailing empty word, so equal sets are stored alike.
    private var high: [UInt64] = []

    public init() {}

    public init(arrayLiteral keys: Int...) {
        for key in keys { insert(key) }
    }

    public var isEmpty: Bool { low == 0 && high.isEmpty }

    public var count: Int { high.reduce(low.nonzeroBitCount) { $0 + $1.nonzeroBitCount } }

    public func contains(_ key: Int) -> Bool {
        guard key >= 0 else { return false }
        if key < 64 { return low & (1 << UInt64(key)) != 0 }
        let word = key / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(key % 64)) != 0
    }

    @discardableResult
    public mutating func insert(_ key: Int) -> (inserted: Bool, memberAfterInsert: Int) {
        precondition(key >= 0, "a key index is not negative")
        if contains(key) { return (false, key) }
        if key < 64 {
            low |= 1 << UInt64(key)
        } else {
            let word = key / 64 - 1
            if word >= high.count { high += Array(repeating: 0, count: word - high.count + 1) }
            high[word] |= 1 << UInt64(key % 64)
        }
        return (true, key)
    }

    @discardableResult
    public mutating func remove(_ key: Int) -> Int? {
        guard contains(key) else { return nil }
        if key < 64 {
            low &= ~(1 << UInt64(key))
        } else {
            high[key / 64 - 1] &= ~(1 << UInt64(key % 64))
            trim()
        }
        return key
    }

    @discardableResult
    public mutating func update(with key: Int) -> Int? {
        insert(key).inserted ? nil : key
    }

    public func union(_ other: KeySet) -> KeySet { combined(with: other, |) }
    public func intersection(_ other: KeySet) -> KeySet { combined(with: other, &) }
    public func symmetricDifference(_ other: KeySet) -> KeySet { combined(with: other, ^) }

    public mutating func formUnion(_ other: KeySet) { self = union(other) }
    public mutating func formIntersection(_ other: KeySet) { self = intersection(other) }
    public mutating func formSymmetricDifference(_ other: KeySet) { self = symmetricDifference(other) }

    /// The keys in increasing order.
    public func makeIterator() -> Iterator { Iterator(set: self) }

    public struct Iterator: IteratorProtocol {
        fileprivate let set: KeySet
        /// The word being read: 0 is `low`, n is `high[n - 1]`.
        private var word = 0
        /// The keys of that word not given yet.
        private var bits: UInt64

        fileprivate init(set: KeySet) {
            self.set = set
            bits = set.low
        }

        public mutating func next() -> Int? {
            while bits == 0 {
                guard word < set.high.count else { return nil }
                bits = set.high[word]
                word += 1
            }
            let bit = bits.trailingZeroBitCount
            bits &= bits - 1
            return word * 64 + bit
        }
    }

    public var description: String { "\(Array(self))" }

    /// Each word combined with the other set's (a missing word is empty).
    private func combined(with other: KeySet, _ operation: (UInt64, UInt64) -> UInt64) -> KeySet {
        var result = KeySet()
        result.low = operation(low, other.low)
        if !high.isEmpty || !other.high.isEmpty {
            result.high = (0..<Swift.max(high.count, other.high.count)).map { word in
                operation(word < high.count ? high[word] : 0, word < other.high.count ? other.high[word] : 0)
            }
            result.trim()
        }
        return result
    }

    private mutating func trim() {
        while high.last == 0 { high.removeLast() }
    }
}
