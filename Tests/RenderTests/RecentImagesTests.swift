import KeyboardModel
@testable import Render
import Testing

extension Rendering {
    /// The renderer's image cache: past its limit, the least recently used images go, and those on screen and
    /// drawn ahead stay.
    @Suite struct RecentImagesTests {
        @Test func theLeastRecentlyUsedGoAQuarterAtATime() {
            var cache = RecentImages<Int, String>(limit: 8)
            for key in 0..<8 { #expect(cache.add("image \(key)", for: key).isEmpty) }
            #expect(cache.use(0) == "image 0" && cache.use(1) == "image 1")
            #expect(!cache.contains(9) && cache.use(9) == nil)
            // The ninth: a quarter of the limit and one more go, the least recently used (2, 3 and 4).
            let dropped = cache.add("image 8", for: 8)
            #expect(dropped.sorted() == ["image 2", "image 3", "image 4"])
            #expect(cache.count == 6)
            for key in [0, 1, 5, 6, 7, 8] { #expect(cache.contains(key), "\(key)") }
            // Asking whether an image is there is not a use of it: 5, 7 and 0 are now the least recently used.
            #expect(cache.contains(5))
            _ = cache.use(6)
            _ = cache.add("image 9", for: 9)
            _ = cache.add("image 10", for: 10)
            #expect(cache.add("image 11", for: 11).sorted() == ["image 0", "image 5", "image 7"])
            #expect(cache.removeAll().count == 6 && cache.count == 0)
        }

        /// Paging through the emoji keyboard as the host does, drawing the pages the page keys lead to ahead
        /// of each turn: every page turned to is all in the cache, its turn a copy. (Emptied at its limit, the
        /// cache lost the page drawn ahead every third turn.)
        @Test func emojiPagesDrawnAheadAreThereWhenTurnedTo() throws {
            let layout = try EmojiBoard(catalog: try EmojiCatalog()).layout()
            let renderer = KeyboardRenderer()
            let surface = try Surface(width: 1024, height: 320)
            func geometry(_ layer: String) throws -> KeyboardGeometry {
                try KeyboardLayoutEngine.layout(layout, layer: layer, width: 1024, height: 320)
            }
            func pages(_ geometry: KeyboardGeometry) -> [String] {
                geometry.keys.compactMap { key in
                    guard EmojiBoard.turnsPage(key), case .layer(let page) = key.function else { return nil }
                    return page
                }
            }
            var page = try geometry("smileys")
            try renderer.draw(page, on: surface)
            for turn in 0..<10 {
                let ahead = try pages(page).reversed().map(geometry)
                for neighbour in ahead {
                    for key in neighbour.keys.indices { renderer.prepareKey(key, of: neighbour, state: KeyboardState(), on: surface) }
                }
                // Forward, and back once in a while.
                let target = try #require(ahead.first { $0.layer != page.layer })
                page = turn % 4 == 3 ? ahead.last! : target
                let drawnNow = page.keys.indices.filter { renderer.prepareKey($0, of: page, state: KeyboardState(), on: surface) }
                #expect(drawnNow.isEmpty, "turn \(turn) to \(page.layer): \(drawnNow.count) keys not drawn ahead")
                try renderer.draw(page, on: surface)
                #expect(renderer.images.count <= KeyboardRenderer.imageLimit)
            }
        }
    }
}
