#if canImport(Glibc)
import Glibc
#endif

/// Strokes across the keys as a finger draws them, for slide-to-type tests: through each letter's key
/// centre moved by a Gaussian jitter, along a smooth curve (Catmull-Rom through the points), sampled
/// evenly in time as a touchscreen reports motion. A second generator to kebbie's, with its own noise.
public struct StrokeGenerator {
    /// The jitter's standard deviation, in key widths.
    public var jitter: Double
    /// Points reported per letter-to-letter segment.
    public var pointsPerSegment: Int

    public init(jitter: Double = 0.15, pointsPerSegment: Int = 12) {
        self.jitter = jitter
        self.pointsPerSegment = pointsPerSegment
    }

    /// The stroke through `centres` (one per letter; a doubled letter's key once) on keys `keyWidth` wide.
    public func stroke(through centres: [(x: Double, y: Double)], keyWidth: Double,
                       using random: inout some RandomNumberGenerator) -> [(x: Double, y: Double)] {
        var anchors: [(x: Double, y: Double)] = []
        for centre in centres where anchors.last.map({ $0 != centre }) ?? true {
            anchors.append(centre)
        }
        let moved = anchors.map { point in
            (x: point.x + Self.gaussian(&random) * jitter * keyWidth, y: point.y + Self.gaussian(&random) * jitter * keyWidth)
        }
        guard moved.count > 1 else { return moved + moved }
        var points: [(x: Double, y: Double)] = [moved[0]]
        for index in 0..<(moved.count - 1) {
            let p0 = moved[max(index - 1, 0)], p1 = moved[index], p2 = moved[index + 1], p3 = moved[min(index + 2, moved.count - 1)]
            for step in 1...pointsPerSegment {
                let t = Double(step) / Double(pointsPerSegment)
                let t2 = t * t, t3 = t2 * t
                func spline(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
                    0.5 * (2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (3 * b - a - 3 * c + d) * t3)
                }
                points.append((spline(p0.x, p1.x, p2.x, p3.x), spline(p0.y, p1.y, p2.y, p3.y)))
            }
        }
        return points
    }

    /// A standard normal number (Box-Muller).
    static func gaussian(_ random: inout some RandomNumberGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
