import KeyboardModel
import Testing

@Suite struct KeySetTests {
    /// A desktop keyboard has more than 64 keys: the ones past the first word behave as the first ones.
    @Test func behavesAsASetOfIntegersAcrossWords() {
        var keys: KeySet = [3, 70, 200]
        var reference: Set<Int> = [3, 70, 200]
        for key in [0, 63, 64, 70, 127, 128, 3, 500] {
            #expect(keys.insert(key).inserted == reference.insert(key).inserted)
        }
        for key in [70, 1, 500, 499] {
            #expect(keys.remove(key) == reference.remove(key))
        }
        #expect(Array(keys) == reference.sorted())
        #expect(keys.count == reference.count)
        for key in -1...600 { #expect(keys.contains(key) == reference.contains(key)) }
    }

    /// Sets made in different ways from the same keys are equal and hash alike: the bits past the last key
    /// left do not count.
    @Test func equalSetsAreEqualHoweverTheyWereMade() {
        var grown: KeySet = [5, 300]
        grown.remove(300)
        #expect(grown == [5])
        #expect(grown.hashValue == KeySet([5]).hashValue)
        #expect(KeySet([1, 2, 3, 90]).intersection([2, 90, 91]) == [2, 90])
        #expect(KeySet([1, 2, 130]).symmetricDifference([2, 130, 4]) == [1, 4])
        #expect(KeySet([1, 130]).union([64]) == [1, 64, 130])
        #expect(KeySet([1, 130]).subtracting([130]) == [1])
        #expect(KeySet().isEmpty && !KeySet([65]).isEmpty)
        #expect(KeySet([130, 2]).description == "[2, 130]")
    }
}
