/// A rectangle in whole pixels, origin top left.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(maxX) && py >= Double(y) && py < Double(maxY)
    }

    /// Squared distance from a point to the nearest point of the rectangle; 0 inside.
    public func squaredDistance(x px: Double, y py: Double) -> Double {
        let dx = max(Double(x) - px, 0, px - Double(maxX))
        let dy = max(Double(y) - py, 0, py - Double(maxY))
        return dx * dx + dy * dy
    }

    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The pixels both rectangles cover; nil where they do not meet.
    public func intersection(_ other: Rect) -> Rect? {
        guard intersects(other) else { return nil }
        let (left, top) = (max(x, other.x), max(y, other.y))
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// Whether every pixel of `other` is in this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.maxX <= maxX && other.y >= y && other.maxY <= maxY
    }
}
