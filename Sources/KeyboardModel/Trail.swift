/// The trail a stroke across the keys leaves (slide to type): the finger's recent points, each fading
/// out `life` seconds after it was made.
public struct Trail: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double
        public var time: Double
        public init(x: Double, y: Double, time: Double) {
            self.x = x
            self.y = y
            self.time = time
        }
    }

    /// Oldest first.
    public var points: [Point] = []
    /// The time it is drawn at.
    public var now = 0.0
    /// How long a point stays visible, in seconds.
    public static let life = 0.35

    public init() {}

    public var isEmpty: Bool { points.isEmpty }

    /// How visible a point is now: 1 when just made, 0 once `life` has passed.
    public func opacity(of point: Point) -> Double { max(0, 1 - (now - point.time) / Self.life) }

    /// Moves the clock on, dropping points that have faded out (the last one only with the rest).
    public mutating func advance(to time: Double) {
        now = time
        while points.count > 1, opacity(of: points[1]) <= 0 { points.removeFirst() }
        if points.count == 1, opacity(of: points[0]) <= 0 { points = [] }
    }

    /// The area it covers drawn `width` pixels wide, or nil when empty.
    public func area(width: Double) -> Rect? {
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for point in points {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        let margin = width / 2 + 2
        let x = Int((minX - margin).rounded(.down)), y = Int((minY - margin).rounded(.down))
        return Rect(x: x, y: y, width: Int((maxX + margin).rounded(.up)) - x, height: Int((maxY + margin).rounded(.up)) - y)
    }
}
