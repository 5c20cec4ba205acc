import Testing
@testable import Words

/// The stroke decoder's location channel, aligned by dynamic time warping.
@Suite struct StrokeAlignmentTests {
    /// A straight path from (0, 0) to (`length`, 0), `count` points, the first `hold` of them resting at the start.
    static func path(count: Int, hold: Int, length: Double = 4) -> [StrokePoint] {
        (0..<count).map { index in
            let t = index < hold ? 0 : Double(index - hold) / Double(count - 1 - hold)
            return StrokePoint(x: length * t, y: 0)
        }
    }

    /// A finger that lingers at the start and then catches up runs along the same path, only late: warped,
    /// it costs next to nothing; point to point, it costs what a path a key away would.
    @Test func aLatePathAlongTheSameLineCostsLittleWarped() {
        let ideal = Self.path(count: 32, hold: 0), late = Self.path(count: 32, hold: 3)
        let warped = SwipeDecoder.warpedDistance2(late, ideal, band: 4)
        let pointToPoint = SwipeDecoder.meanDistance2(late, ideal)
        #expect(warped < pointToPoint / 4, "warped \(warped), point to point \(pointToPoint)")
        // A path beside it, a key away, stays a key away however it is aligned.
        let beside = ideal.map { StrokePoint(x: $0.x, y: 1) }
        #expect(abs(SwipeDecoder.warpedDistance2(beside, ideal, band: 4) - 1) < 0.001)
        #expect(SwipeDecoder.warpedDistance2(ideal, ideal, band: 4) == 0)
    }

    /// Warping matches only within its band: a path far out of step keeps most of its cost.
    @Test func theBandLimitsHowFarAPointMayBeMatched() {
        let ideal = Self.path(count: 32, hold: 0), late = Self.path(count: 32, hold: 16)
        #expect(SwipeDecoder.warpedDistance2(late, ideal, band: 1) > SwipeDecoder.warpedDistance2(late, ideal, band: 16))
    }

    /// The letters' channel asks only that the stroke pass each letter's key in order: a curve that bulges
    /// between them costs nothing, a letter it never comes near costs its distance, and letters out of
    /// order cost what the nearest points in order are away.
    @Test func lettersCostOnlyTheirDistanceFromTheStrokeInOrder() {
        // From (0, 0) up and over to (4, 0): through both ends, a key and a half away from the line between.
        let bulge = (0...20).map { index -> StrokePoint in
            let t = Double(index) / 20
            return StrokePoint(x: 4 * t, y: 6 * t * (1 - t))
        }
        let ends = [StrokePoint(x: 0, y: 0), StrokePoint(x: 4, y: 0)]
        #expect(SwipeDecoder.anchoredDistance2(bulge, ends) == 0)
        #expect(SwipeDecoder.warpedDistance2(SwipeDecoder.resample(bulge, count: 32),
                                             SwipeDecoder.resample(ends, count: 32), band: 4) > 0.5)
        // A letter the stroke passes a key below.
        let missed = [StrokePoint(x: 0, y: 0), StrokePoint(x: 2, y: 0.5), StrokePoint(x: 4, y: 0)]
        #expect(abs(SwipeDecoder.anchoredDistance2(bulge, missed) - 1.0 / 3) < 0.001)
        // The same two letters the other way round: the first point's nearest in order is the stroke's end.
        #expect(SwipeDecoder.anchoredDistance2(bulge, ends.reversed()) >= 6)
    }
}
