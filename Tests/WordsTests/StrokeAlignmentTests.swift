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
}
