#if canImport(Glibc)
import Glibc
#endif
internal import KeyboardModel
public import Words

/// Where the keys are, for the decoder and for motion (TypingEngine's part): the letter keys' places and
/// the key width slides are measured in, made again for each layout, and the invisible help that grows a
/// letter key's hit area toward likely next letters.
extension TypingEngine {
    /// Where the letter keys of the keyboard on screen are, for the decoder.
    public func keyPlan() -> KeyPlan { word.plan }

    /// A new layout: new key places, and a new generation, so the next round asks for suggestions again
    /// (the bar may have come or gone) and a result measured on the old keys is dropped.
    mutating func keysMoved() {
        word.plan = Self.keyPlan(for: geometry)
        let rows = Set(word.plan.keys.values.map(\.y)).sorted()
        word.rowPitch = zip(rows, rows.dropFirst()).map { $1 - $0 }.min() ?? word.plan.keyHeight
        word.generation += 1
        // A stroke drawn on the old keys is no word on these (another keyboard may show no bar at all,
        // and its answer would be typed whenever one shows again).
        word.pendingStroke = nil
    }

    /// What reading a tap as an accent of its key costs, in nats: about a third as likely as its letter.
    static let accentPenalty: Float = 1

    static func keyPlan(for geometry: KeyboardGeometry) -> KeyPlan {
        var keys: [UInt16: KeyPlan.Key] = [:]
        var widths: [Int] = []
        let letterKeys = geometry.keys.compactMap { key in letter(of: key).map { (unit: $0, key: key) } }
        let rows = Array(Set(letterKeys.map(\.key.rect.y))).sorted()
        func centre(of key: PlacedKey, penalty: Float = 0) -> KeyPlan.Key {
            KeyPlan.Key(x: Double(key.rect.x) + Double(key.rect.width) / 2, y: Double(key.rect.y) + Double(key.rect.height) / 2,
                        row: rows.firstIndex(of: key.rect.y) ?? 0, penalty: penalty)
        }
        for (unit, key) in letterKeys {
            keys[unit] = centre(of: key)
            widths.append(key.rect.width)
        }
        // The accents a letter key offers when held sit where it is: "cafe" tapped reads as "café".
        for (_, key) in letterKeys {
            for alternate in key.alternates where alternate.count == 1 && alternate.first!.isLetter {
                let units = Array(alternate.lowercased().utf16)
                guard units.count == 1, keys[units[0]] == nil else { continue }
                keys[units[0]] = centre(of: key, penalty: Self.accentPenalty)
            }
        }
        // A layer without letters (digits, symbols) still measures slides on its space bar and delete key in
        // its own keys' widths.
        if widths.isEmpty {
            widths = geometry.keys.compactMap { key in
                guard case .text(let text) = key.function, text.count == 1, text != " " else { return nil }
                return key.rect.width
            }
        }
        let width = widths.sorted().dropFirst(widths.count / 2).first.map { Double($0 + geometry.gap.x) } ?? 1
        return KeyPlan(keys: keys, keyWidth: width, keyHeight: Double(geometry.keyHeight + geometry.gap.y))
    }

    /// The key a touch goes to, with the invisible help: within a word, a letter key's hit area grows
    /// toward likely next letters and shrinks for unlikely ones, by at most a quarter of a key, never in
    /// the middle half of the key, never for a word's first letter. What is drawn does not move.
    func helpedKey(_ hit: Int?, x: Double, y: Double) -> Int? {
        guard let hit, !word.taps.isEmpty, let result = currentResult,
              !result.nextCharacters.isEmpty, Self.letter(of: geometry.keys[hit]) != nil else { return hit }
        let rect = geometry.keys[hit].rect
        let dx = (x - (Double(rect.x) + Double(rect.width) / 2)) / Double(rect.width)
        let dy = (y - (Double(rect.y) + Double(rect.height) / 2)) / Double(rect.height)
        // Dead centre (the middle half) always types the key itself.
        if abs(dx) <= 0.25 && abs(dy) <= 0.25 { return hit }
        func score(_ index: Int) -> Double? {
            let key = geometry.keys[index]
            guard let unit = Self.letter(of: key) else { return nil }
            let r = key.rect
            // Within the key's rectangle grown by a quarter of it on every side.
            let growX = Double(r.width) / 4, growY = Double(r.height) / 4
            guard x >= Double(r.x) - growX, x < Double(r.maxX) + growX, y >= Double(r.y) - growY, y < Double(r.maxY) + growY
            else { return nil }
            let kx = (x - (Double(r.x) + Double(r.width) / 2)) / Double(r.width)
            let ky = (y - (Double(r.y) + Double(r.height) / 2)) / Double(r.height)
            let probability = Double(result.nextCharacters[unit] ?? 0)
            return (kx * kx + ky * ky) / (2 * 0.45 * 0.45) - log(probability + 0.02)
        }
        var best = hit, bestScore = score(hit) ?? .infinity
        for index in geometry.keys.indices where index != hit {
            if let value = score(index), value < bestScore {
                best = index
                bestScore = value
            }
        }
        return best
    }

    static func letter(of key: PlacedKey) -> UInt16? {
        guard case .text(let text) = key.function, text.count == 1, text.first!.isLetter else { return nil }
        let units = Array(text.lowercased().utf16)
        return units.count == 1 ? units[0] : nil
    }
}
