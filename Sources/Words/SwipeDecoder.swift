#if canImport(Glibc)
import Glibc
#endif

/// A point of a stroke across the keys, in the keyboard's pixels.
public struct StrokePoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A word a stroke may mean, with what it costs, in nats: how far the stroke runs from the word's path
/// through its keys (where and what shape), and how unlikely the word is where it goes.
public struct SwipeCandidate: Equatable, Sendable {
    public var word: String
    public var stroke: Float
    public var language: Float
    public var cost: Float { stroke + language }
}

/// How the stroke decoder weighs what it finds. Distances are in key widths.
public struct SwipeSettings: Equatable, Sendable {
    /// How far from the stroke a word's key may lie, and still be a letter the finger passed.
    public var reach = 0.9
    /// How far from the stroke's first and last points the word's first and last keys may lie.
    public var endReach = 1.1
    /// Points both paths are resampled to before they are compared.
    public var samples = 32
    /// Weight of the location channel: the mean squared distance between the stroke and the word's path,
    /// aligned by time warping (`warp`).
    public var location: Float = 32
    /// The same, compared point by point: the quick first measure every word found gets.
    public var pointLocation: Float = 8
    /// How many of the words the quick measure ranks first get the time-warped one.
    public var warped = 100
    /// Weight of the shape channel: the same, with both paths centred and scaled to one size.
    public var shape: Float = 10
    /// Weight of where the stroke begins and ends: the squared distances of its first and last points from
    /// the word's first and last keys (a word's ends are where a finger is most deliberate).
    public var ends: Float = 4
    /// How much the language model counts against the stroke.
    public var languageWeight: Float = 1.0
    /// Words scored at most (the cheapest by the search's bound first); past it the search stops.
    public var maxScored = 4000
    /// The most a short stroke's word may cost in the stroke channels (nats): above it, the slide was a
    /// corrected tap, not a word.
    public var shortStrokeCost: Float = 14
    /// The most a short stroke's word may cost in the language model (nats): a rare two-letter word ("qa",
    /// "rt") is less likely than a corrected tap.
    public var shortStrokeLanguage: Float = 9
    /// How far (in samples) the location channel may match a point of the stroke to one of the word's path
    /// ahead or behind its own place (dynamic time warping; 0: point to point): a finger that cuts a
    /// corner, overshoots a key or wiggles over a doubled letter is early or late along its path, not off it.
    public var warp = 4
    /// Weight of the letters' channel: how near the stroke comes to each letter's key, in order, whatever
    /// its path between them (a curve that bulges between two letters costs nothing here).
    public var anchor: Float = 16

    public init() {}
}

/// Finds the words a stroke across the keys may mean, in the manner of SHARK2: the dictionary's trie is
/// walked along the stroke (each letter's key must lie near the stroke, after the previous letter's,
/// the first near its start and the last near its end), and each word found is scored by how its ideal
/// path through the key centres matches the stroke, in place and in shape, and by the language model,
/// with the word before as context.
public struct SwipeDecoder: Sendable {
    public let decoder: Decoder
    public var settings = SwipeSettings()

    public init(decoder: Decoder) { self.decoder = decoder }

    private var dictionary: WordDictionary { decoder.dictionary }

    /// The likeliest words, cheapest first. `boost` gives the user's own words a lower language cost;
    /// `others` are words the dictionary lacks (the user's), each with its language cost in nats.
    /// A `short` stroke (a slide to a neighbouring key) may be a corrected tap as well as a word: it means
    /// only words that run from the key it began on to the key it ended on and follow it closely.
    public func decode(_ stroke: [StrokePoint], plan: KeyPlan, previous: String? = nil, earlier: String? = nil, limit: Int = 8,
                       short: Bool = false, others: [(word: String, language: Float)] = [],
                       boost: (String) -> Float = { _ in 0 }) -> [SwipeCandidate] {
        guard stroke.count >= 2, plan.keyWidth > 0 else { return [] }
        let unit = plan.keyWidth
        // In key widths from here on.
        let points = Self.withoutSpikes(stroke.map { StrokePoint(x: $0.x / unit, y: $0.y / unit) })
        let dense = Self.resample(points, every: 0.2)
        let sampled = Self.resample(points, count: settings.samples)
        let sampledShape = Self.normalized(sampled)
        let keys = plan.keys.mapValues { StrokePoint(x: $0.x / unit, y: $0.y / unit) }
        let penalties = plan.keys.mapValues(\.penalty)
        let context = LanguageContext(dictionary: dictionary, earlier: earlier, previous: previous)
        let apostrophe = UInt16(UInt8(ascii: "'"))
        let reach = settings.reach * settings.reach, endReach = settings.endReach * settings.endReach
        let start = dense[0], end = dense[dense.count - 1]

        var found: [SwipeCandidate] = []
        /// Each candidate's path through its key centres, resampled, by its place in `found`.
        var ideals: [[StrokePoint]] = []
        /// And its letters' key centres, a doubled letter once.
        var paths: [[StrokePoint]] = []
        var scored = 0
        /// A word found, with how far the stroke is from its path through key centres, in nats; the location
        /// is compared point by point here (quick, for every word found).
        func add(_ word: String, path: [StrokePoint], penalty: Float, language: Float) {
            let ideal = Self.resample(path, count: settings.samples)
            let shape = Self.meanDistance2(sampledShape, Self.normalized(ideal))
            let ends = Float(distance2(start, path[0]) + distance2(end, path[path.count - 1]))
            let stroke = settings.pointLocation * Self.meanDistance2(sampled, ideal) + settings.shape * shape
                + settings.ends * ends + penalty
            found.append(SwipeCandidate(word: word, stroke: stroke, language: language))
            ideals.append(ideal)
            paths.append(path)
        }
        // Depth first through the trie: a node, the dense point its last letter was matched at, and the
        // key centres of the letters so far.
        func walk(_ node: WordDictionary.Node, at index: Int, path: [StrokePoint], penalty: Float) {
            if node.word < dictionary.wordCount, let last = path.last, distance2(last, end) <= endReach, scored < settings.maxScored {
                scored += 1
                if let word = dictionary.word(node.word) {
                    let language = settings.languageWeight
                        * max(0, decoder.languageCost(node.word, in: context) - boost(word))
                    add(word, path: path, penalty: penalty, language: language)
                }
            }
            decoder.forEachChild(of: node) { child in
                let character = child.character
                if character == apostrophe {
                    walk(child, at: index, path: path, penalty: penalty)
                    return
                }
                guard let key = keys[character] else { return }
                if path.isEmpty {
                    guard distance2(key, start) <= endReach else { return }
                    walk(child, at: 0, path: [key], penalty: penalty + (penalties[character] ?? 0))
                    return
                }
                // A doubled letter, or one on the same key: no move needed.
                if let last = path.last, last == key {
                    walk(child, at: index, path: path, penalty: penalty + (penalties[character] ?? 0))
                    return
                }
                // The first point from here on that passes near the key.
                var next = index
                while next < dense.count, distance2(dense[next], key) > reach { next += 1 }
                guard next < dense.count else { return }
                walk(child, at: next, path: path + [key], penalty: penalty + (penalties[character] ?? 0))
            }
        }
        walk(dictionary.root, at: 0, path: [], penalty: 0)
        // The user's own words: their paths scored the same way, where they begin and end near the stroke's ends.
        for (word, language) in others {
            var path: [StrokePoint] = []
            var penalty: Float = 0
            for unit in word.lowercased().utf16 where unit != apostrophe {
                guard let key = keys[unit] else { path = []; break }
                penalty += penalties[unit] ?? 0
                if path.last != key { path.append(key) }
            }
            guard let first = path.first, let last = path.last, distance2(first, start) <= endReach,
                  distance2(last, end) <= endReach else { continue }
            add(word, path: path, penalty: penalty, language: settings.languageWeight * language)
        }
        // The likeliest by that measure have their location aligned by time warping instead.
        if settings.warp > 0 {
            let likeliest = found.indices.sorted { found[$0].cost < found[$1].cost }.prefix(settings.warped)
            found = likeliest.map { index in
                var candidate = found[index]
                let pointToPoint = Self.meanDistance2(sampled, ideals[index])
                let warped = Self.warpedDistance2(sampled, ideals[index], band: settings.warp)
                candidate.stroke += settings.location * warped - settings.pointLocation * pointToPoint
                if settings.anchor > 0 { candidate.stroke += settings.anchor * Self.anchoredDistance2(dense, paths[index]) }
                return candidate
            }
        }
        if short {
            let first = Self.nearestKey(to: stroke[0], in: plan), last = Self.nearestKey(to: stroke[stroke.count - 1], in: plan)
            found.removeAll { candidate in
                let letters = candidate.word.lowercased().utf16.filter { $0 != apostrophe }
                guard let head = letters.first, let tail = letters.last else { return true }
                return candidate.stroke > settings.shortStrokeCost || candidate.language > settings.shortStrokeLanguage
                    || Self.position(of: head, in: plan) != first || Self.position(of: tail, in: plan) != last
            }
        }
        found.sort { $0.cost != $1.cost ? $0.cost < $1.cost : $0.word < $1.word }
        var seen = Set<String>()
        return Array(found.filter { seen.insert($0.word.lowercased()).inserted }.prefix(limit))
    }

    // MARK: - Geometry

    /// The centre of the letter key nearest a point, in the keyboard's pixels.
    static func nearestKey(to point: StrokePoint, in plan: KeyPlan) -> StrokePoint? {
        plan.keys.values.map { StrokePoint(x: $0.x, y: $0.y) }
            .min { distance2($0, point) < distance2($1, point) }
    }

    /// The centre of the key that types a letter (an accent's: the key that offers it).
    static func position(of letter: UInt16, in plan: KeyPlan) -> StrokePoint? {
        plan.keys[letter].map { StrokePoint(x: $0.x, y: $0.y) }
    }

    static func distance2(_ a: StrokePoint, _ b: StrokePoint) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }

    private func distance2(_ a: StrokePoint, _ b: StrokePoint) -> Double { Self.distance2(a, b) }

    static func meanDistance2(_ a: [StrokePoint], _ b: [StrokePoint]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var sum = 0.0
        for index in a.indices { sum += distance2(a[index], b[index]) }
        return Float(sum / Double(a.count))
    }

    /// The mean squared distance between two paths of as many points, each point matched to one of the
    /// other's within `band` samples of its own place, in order (dynamic time warping).
    static func warpedDistance2(_ a: [StrokePoint], _ b: [StrokePoint], band: Int) -> Float {
        let n = a.count
        guard n == b.count, n > 0 else { return .infinity }
        // Two rows of the cost table (and of the matched pairs' counts), swapped as the table fills: a stroke
        // is scored against thousands of words, so nothing is allocated per row.
        var previous = [Double](repeating: .infinity, count: n + 1), current = previous
        var previousSteps = [Int](repeating: 0, count: n + 1), currentSteps = previousSteps
        previous[0] = 0
        for i in 1...n {
            let low = max(1, i - band), high = min(n, i + band)
            current[low - 1] = .infinity
            if high < n { current[high + 1] = .infinity }
            for j in low...high {
                var best = previous[j - 1], taken = previousSteps[j - 1]
                if previous[j] < best { best = previous[j]; taken = previousSteps[j] }
                if current[j - 1] < best { best = current[j - 1]; taken = currentSteps[j - 1] }
                current[j] = best + distance2(a[i - 1], b[j - 1])
                currentSteps[j] = taken + 1
            }
            swap(&previous, &current)
            swap(&previousSteps, &currentSteps)
        }
        return Float(previous[n] / Double(max(previousSteps[n], 1)))
    }

    /// The stroke without its spikes: single points far out from both neighbours, which lie close together.
    /// No finger goes a key away and back between two samples; a touchscreen's ghost point does (and
    /// kebbie's stroke generator, on a doubled letter).
    static func withoutSpikes(_ points: [StrokePoint]) -> [StrokePoint] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        for index in 1..<(points.count - 1) {
            let before = kept[kept.count - 1], point = points[index], after = points[index + 1]
            let out = distance2(before, point).squareRoot(), back = distance2(point, after).squareRoot()
            let across = distance2(before, after).squareRoot()
            if min(out, back) > spikeLength && across < min(out, back) / 2 { continue }
            kept.append(point)
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// How far out (in key widths) a single point must lie from both neighbours to be a spike.
    static let spikeLength = 1.0

    /// The mean squared distance from each of `keys`, in order, to the point of `stroke` matched to it: the
    /// matching, in the stroke's order (two keys may share a point), that makes the sum least.
    static func anchoredDistance2(_ stroke: [StrokePoint], _ keys: [StrokePoint]) -> Float {
        guard !stroke.isEmpty, !keys.isEmpty else { return .infinity }
        // best[j]: the least sum for the keys so far with the last of them matched at or before point j.
        var best = [Double](repeating: 0, count: stroke.count)
        for key in keys {
            var least = Double.infinity
            for j in stroke.indices {
                least = min(least, best[j] + distance2(key, stroke[j]))
                best[j] = least
            }
        }
        return Float(best[best.count - 1] / Double(keys.count))
    }

    /// `count` points evenly spaced along a path (all at its point when it has no length).
    static func resample(_ path: [StrokePoint], count: Int) -> [StrokePoint] {
        guard let first = path.first else { return [] }
        let length = zip(path, path.dropFirst()).reduce(0.0) { $0 + distance2($1.0, $1.1).squareRoot() }
        guard length > 0, count > 1 else { return Array(repeating: first, count: count) }
        return resample(path, every: length / Double(count - 1), count: count)
    }

    /// Points every `step` along a path, the first and last included.
    static func resample(_ path: [StrokePoint], every step: Double, count wanted: Int? = nil) -> [StrokePoint] {
        guard var previous = path.first else { return [] }
        var result = [previous]
        var carried = 0.0
        for point in path.dropFirst() {
            var segment = distance2(previous, point).squareRoot()
            var from = previous
            while carried + segment >= step, segment > 0 {
                let t = (step - carried) / segment
                let next = StrokePoint(x: from.x + (point.x - from.x) * t, y: from.y + (point.y - from.y) * t)
                result.append(next)
                segment -= step - carried
                from = next
                carried = 0
            }
            carried += segment
            previous = point
        }
        if let wanted {
            if result.count > wanted { result.removeLast(result.count - wanted) }
            while result.count < wanted { result.append(path[path.count - 1]) }
            result[wanted - 1] = path[path.count - 1]
        } else if let last = path.last, result.last != last {
            result.append(last)
        }
        return result
    }

    /// A path centred on its centroid and scaled so that its bounding box's longer side is 1 (a path with
    /// no extent stays a point).
    static func normalized(_ path: [StrokePoint]) -> [StrokePoint] {
        guard !path.isEmpty else { return [] }
        let xs = path.map(\.x), ys = path.map(\.y)
        let side = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        let cx = xs.reduce(0, +) / Double(path.count), cy = ys.reduce(0, +) / Double(path.count)
        let scale = side > 0 ? 1 / side : 0
        return path.map { StrokePoint(x: ($0.x - cx) * scale, y: ($0.y - cy) * scale) }
    }
}
