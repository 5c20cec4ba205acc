internal import CX11
internal import CXKBCommon

/// How one keysym is typed: a keycode and the real modifiers its level needs.
struct Stroke: Equatable {
    var keycode: UInt8
    var modifiers: UInt32
}

/// What the active keymap types, as the injector reads it: for each keysym and character the keycode and
/// modifiers of its easiest level, the keycodes that press each modifier, and the keycodes with no
/// symbols that can be lent to characters the keymap lacks.
struct Keymap {
    private(set) var byKeysym: [UInt: Stroke] = [:]
    private(set) var byCharacter: [UInt32: Stroke] = [:]
    /// A keycode for each of the eight real modifiers, for pressing them.
    private(set) var modifierKeycodes: [UInt8] = Array(repeating: 0, count: 8)
    /// Modifiers that only choose a level (Shift, AltGr): never lock-like ones such as NumLock.
    private(set) var levelModifierMask = UInt32(ShiftMask)
    /// Keycodes with no symbols, and those still holding what the injector put on them.
    private(set) var spareKeycodes: [UInt8] = []

    /// How many spare keycodes are used at most: enough that a person never waits for one, even typing
    /// emoji, whose sequences take up to ten code points (a family, a toned couple), several a keycode
    /// of their own.
    static let spareRingSize = 32

    /// Reads the keymap in its active group. `held` is what the injector put on spare keycodes: a keycode
    /// that still holds it stays a spare; one that does not (a new keymap replaced it) is in `lost`. Nil
    /// when the server gives no keymap.
    static func read(_ display: OpaquePointer, held: [UInt8: [UInt]]) -> (keymap: Keymap, lost: [UInt8])? {
        var keymap = Keymap()
        keymap.readModifierMap(display)
        var state = XkbStateRec()
        XkbGetState(display, UInt32(XkbUseCoreKbd), &state)
        let activeGroup = Int32(state.group)
        guard let xkb = XkbGetMap(display, UInt32(XkbKeySymsMask | XkbKeyTypesMask), UInt32(XkbUseCoreKbd)) else {
            return nil
        }
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        var ranks: [UInt: Int] = [:]
        var lost: [UInt8] = []
        for keycode in Int(xkb.pointee.min_key_code)...Int(xkb.pointee.max_key_code) {
            let groups = CX11_keyNumGroups(xkb, Int32(keycode))
            // A spare keycode stays the injector's while it holds what it put there; a new keymap
            // (setxkbmap) replaces it, and then empty keycodes are found anew.
            if let holds = held[UInt8(keycode)] {
                if groups > 0 && UInt(CX11_keySym(xkb, Int32(keycode), 0, 0)) == holds[0] {
                    keymap.spareKeycodes.append(UInt8(keycode))
                    continue
                }
                lost.append(UInt8(keycode))
            }
            if groups == 0 {
                if keymap.spareKeycodes.count < spareRingSize { keymap.spareKeycodes.append(UInt8(keycode)) }
                continue
            }
            let group = activeGroup % groups
            for level in 0..<CX11_keyGroupWidth(xkb, Int32(keycode), group) {
                let keysym = UInt(CX11_keySym(xkb, Int32(keycode), group, level))
                let modifiers = CX11_levelModifiers(xkb, Int32(keycode), group, level)
                guard keysym != 0, modifiers >= 0, UInt32(modifiers) & ~keymap.levelModifierMask == 0 else { continue }
                // Fewer modifiers first; keypad keys last (terminals may send escapes for them).
                let isKeypad = (0xFF80...0xFFBD).contains(keysym)
                let rank = (isKeypad ? 100 : 0) + Int(UInt32(modifiers).nonzeroBitCount)
                if let old = ranks[keysym], old <= rank { continue }
                ranks[keysym] = rank
                keymap.byKeysym[keysym] = Stroke(keycode: UInt8(keycode), modifiers: UInt32(modifiers))
            }
        }
        var characterRanks: [UInt32: Int] = [:]
        for (keysym, stroke) in keymap.byKeysym {
            // Dead keys compose with the next key: they never type their character alone.
            if (0xFE50...0xFE93).contains(keysym) { continue }
            let character = xkb_keysym_to_utf32(UInt32(keysym))
            guard character != 0, let rank = ranks[keysym] else { continue }
            if let old = characterRanks[character], old <= rank { continue }
            characterRanks[character] = rank
            keymap.byCharacter[character] = stroke
        }
        return (keymap, lost)
    }

    /// The modifier keycodes, and which modifiers choose a level.
    private mutating func readModifierMap(_ display: OpaquePointer) {
        guard let map = XGetModifierMapping(display) else { return }
        defer { XFreeModifiermap(map) }
        let perModifier = Int(map.pointee.max_keypermod)
        // The modifier that AltGr sets: pressed through a key that sends ISO_Level3_Shift (a Mode_switch
        // key in the same row switches groups instead, and does not reach level 3).
        for modifier in 0..<8 {
            var chosen: UInt8 = 0
            var level3: UInt8 = 0
            for index in 0..<perModifier {
                let keycode = map.pointee.modifiermap[modifier * perModifier + index]
                guard keycode != 0 else { continue }
                if chosen == 0 { chosen = keycode }
                if level3 == 0 && modifier >= 3
                    && XkbKeycodeToKeysym(display, keycode, 0, 0) == UInt(XK_ISO_Level3_Shift) {
                    level3 = keycode
                }
            }
            if level3 != 0 {
                levelModifierMask |= 1 << UInt32(modifier)
                chosen = level3
            }
            modifierKeycodes[modifier] = chosen
        }
    }
}
