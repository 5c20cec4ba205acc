/// The images a renderer keeps, up to a limit: when a new one would pass it, the least recently used go,
/// a quarter of the limit at once, so the keys on screen and the ones drawn ahead since stay.
///
/// Emptying the whole cache at the limit threw away the emoji page drawn ahead of a page turn, which the
/// turn then drew in its frame (docs/performance.md).
struct RecentImages<Key: Hashable, Image> {
    let limit: Int
    private var entries: [Key: (image: Image, used: Int)] = [:]
    /// Counts uses: an entry's `used` is the count at its last use.
    private var clock = 0

    init(limit: Int) {
        precondition(limit >= 4, "a cache of at least four images")
        self.limit = limit
    }

    var count: Int { entries.count }
    var all: some Collection<Image> { entries.values.lazy.map(\.image) }

    /// Whether `key` has an image; not a use of it.
    func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// The image of `key`, now its most recently used.
    mutating func use(_ key: Key) -> Image? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].used = clock
        return entries.values[index].image
    }

    /// Keeps `image` for `key` (which has none) as the most recently used; returns the images let go to
    /// stay within the limit, for the caller to free.
    mutating func add(_ image: Image, for key: Key) -> [Image] {
        var dropped: [Image] = []
        if entries.count >= limit {
            let oldest = entries.sorted { $0.value.used < $1.value.used }.prefix(entries.count - limit * 3 / 4 + 1)
            for (key, entry) in oldest {
                entries[key] = nil
                dropped.append(entry.image)
            }
        }
        clock += 1
        entries[key] = (image, clock)
        return dropped
    }

    /// Lets every image go; returns them for the caller to free.
    mutating func removeAll() -> [Image] {
        defer { entries.removeAll() }
        return entries.values.map(\.image)
    }
}
