import KeyboardModel
import Testing

/// "\(decimal: n)" writes what "\(n)" does, for every size and sign of number.
@Suite struct DecimalTests {
    @Test(arguments: [0, 7, -7, 10, -10, 99, 100, 1_234_567_890, -1_234_567_890, Int.max, Int.min])
    func signedNumbersAreWrittenAsTheStandardLibraryWritesThem(_ value: Int) {
        #expect("<\(decimal: value)>" == "<\(value)>")
    }

    @Test(arguments: [UInt(0), 9, 10, 4_294_967_295, UInt.max])
    func unsignedNumbersAreWrittenAsTheStandardLibraryWritesThem(_ value: UInt) {
        #expect("<\(decimal: value)>" == "<\(value)>")
    }

    /// Random numbers of every length.
    @Test func randomNumbersAreWrittenAsTheStandardLibraryWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<63, using: &generator)
            #expect("\(decimal: value)" == "\(value)")
        }
    }
}
