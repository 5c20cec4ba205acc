import KeyboardModel
@testable import Render
import Testing

extension Rendering {
    /// Emoji keys: each drawn in its colours, in the middle of its key, from the font's bitmap (what that keeps
    /// in memory, nothing, is `make bench ARGS="--only emoji"`'s business).
    @Suite struct EmojiDrawingTests {
        static func board() throws -> EmojiBoard {
            EmojiBoard(catalog: try EmojiCatalog())
        }

        @Test func anEmojiIsDrawnInItsColoursInTheMiddleOfItsKey() throws {
            let layout = try Self.board().layout()
            let geometry = try KeyboardLayoutEngine.layout(layout, layer: "smileys", width: 1024, height: 320)
            let surface = try Surface(width: 1024, height: 320)
            try KeyboardRenderer().draw(geometry, on: surface)
            for emoji in ["😀", "😂", "🥰"] {
                let key = try #require(geometry.keys.first { $0.function == .text(emoji) }).rect
                // The grinning face's yellow: pixels far from any grey of the theme.
                var inked: [(x: Int, y: Int)] = []
                for (index, pixel) in pixels(surface, in: key).enumerated() {
                    let red = Int(pixel >> 16 & 0xFF), green = Int(pixel >> 8 & 0xFF), blue = Int(pixel & 0xFF)
                    if red > 180 && green > 120 && blue < 90 { inked.append((index % key.width, index / key.width)) }
                }
                #expect(inked.count > key.width * key.height / 10, "\(emoji): \(inked.count) yellow pixels")
                let xs = inked.map(\.x), ys = inked.map(\.y)
                let centre = (Double(xs.min()! + xs.max()!) / 2, Double(ys.min()! + ys.max()!) / 2)
                #expect(abs(centre.0 - Double(key.width) / 2) <= 3 && abs(centre.1 - Double(key.height) / 2) <= 3,
                        "\(emoji) centred at \(centre) in a \(key.width)x\(key.height) key")
            }
        }

        /// Every kind of emoji, the group tabs' too, is one glyph of the colour font, found by shaping alone
        /// and drawn from its bitmap (a layout would decode the bitmap once more to measure it); text is not.
        @Test func everyKindOfEmojiIsShapedToOneColourGlyph() throws {
            let renderer = KeyboardRenderer()
            let board = try Self.board()
            let tabs = board.catalog.groups.map(\.tab)
            #expect(tabs.count >= 8)
            for emoji in ["😀", "👨‍👩‍👧", "🇩🇪", "1️⃣", "👋🏽", "🧑🏻‍🤝‍🧑🏿", "❤️", "🏳️‍🌈"] + tabs {
                #expect(KeyboardRenderer.mayBeEmoji(emoji), "\(emoji)")
                #expect(renderer.isOneColourGlyph(emoji), "\(emoji)")
            }
            for text in ["a", "ABC", "ß", "Ж", "ω", "1", "#", "€", "space"] {
                #expect(!KeyboardRenderer.mayBeEmoji(text), "\(text)")
                #expect(!renderer.isOneColourGlyph(text), "\(text)")
            }
            // Two emoji are two glyphs: drawn as text.
            #expect(!renderer.isOneColourGlyph("😀😂"))
        }
    }
}
