@testable import Injector
import Testing

/// Which spare keycode a character the keymap lacks is mapped to.
@Suite struct SpareKeycodeTests {
    @Test func theKeycodePressedLongestAgoIsMappedAnew() {
        let spares: [UInt8] = [93, 97, 103, 120]
        // Never pressed comes first, in the keymap's order.
        #expect(Injector.spareToMap(spares, lastUse: [93: 5, 103: 1]) == 97)
        #expect(Injector.spareToMap(spares, lastUse: [:]) == 93)
        // All pressed: the one pressed longest ago, however long ago it was mapped.
        #expect(Injector.spareToMap(spares, lastUse: [93: 5, 97: 2, 103: 9, 120: 3]) == 97)
        #expect(Injector.spareToMap([], lastUse: [:]) == nil)
    }

    /// Russian typed under a US keymap, 8 letters a second, on the 19 spare keycodes of an evdev keymap:
    /// no letter waits for a keycode pressed within the reuse delay (taken in turn, one letter in 50
    /// waited, some 80 ms each).
    @Test func typingALanguageTheKeymapLacksNeverWaits() {
        let text = """
            съешь же ещё этих мягких французских булок, да выпей чаю. широкая электрификация южных губерний \
            даст мощный толчок подъёму сельского хозяйства. в чащах юга жил бы цитрус? да, но фальшивый \
            экземпляр! любя, съешь щипцы, — вздохнёт мэр, — кайф жгуч. эх, чужак, общий съём цен шляп \
            юфть вдрызг! мы хотели бы знать, почему здесь всегда так тихо и спокойно по вечерам
            """
        let spares = (0..<19).map { UInt8(100 + $0) }
        var held: [UInt8: Character] = [:], lastUse: [UInt8: Double] = [:]
        var time = 0.0, waits = 0, mappings = 0
        for letter in text.lowercased() where letter.isLetter {
            time += 0.125
            if let (keycode, _) = held.first(where: { $0.value == letter }) {
                lastUse[keycode] = time
                continue
            }
            let keycode = Injector.spareToMap(spares, lastUse: lastUse)!
            if let last = lastUse[keycode], last + Injector.spareReuseDelay > time { waits += 1 }
            held[keycode] = letter
            lastUse[keycode] = time
            mappings += 1
        }
        #expect(Set(text.lowercased().filter(\.isLetter)).count == 33)
        #expect(mappings > 19)   // the ring came round
        #expect(waits == 0)
    }
}
