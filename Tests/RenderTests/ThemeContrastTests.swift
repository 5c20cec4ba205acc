import KeyboardModel
import Render
import TestSupport
import Testing

extension Rendering {
    /// The high-contrast themes hold every label at WCAG AAA against every fill it is drawn on (7:1); every
    /// theme keeps the small labels readable (AA, 4.5:1), and the keys stand out from the background.
    @Suite struct ThemeContrastTests {
        /// Each label colour with the fills it is drawn on: keys up and down (a pressed character key takes the
        /// function key's fill, a pressed or latched function key the character key's), popups on the
        /// character key's fill, prominent keys and the selected Globe entry on the accent.
        static func pairs(_ theme: Theme) -> [(name: String, ink: Color, fill: Color)] {
            [("label on character key", theme.label, theme.characterKey),
             ("label on function key", theme.label, theme.functionKey),
             ("small label on character key", theme.secondaryLabel, theme.characterKey),
             ("small label on function key", theme.secondaryLabel, theme.functionKey),
             ("accent label on accent", theme.accentLabel, theme.accent)]
        }

        @Test(arguments: [Theme.highContrast, Theme.highContrastDark])
        func highContrastLabelsAreAAA(_ theme: Theme) {
            for pair in Self.pairs(theme) {
                #expect(pair.ink.contrast(with: pair.fill) >= 7, "\(theme.name): \(pair.name)")
            }
            // Outlined keys: the outline against the background and the keys (graphics: 3:1).
            #expect(theme.outline > 0)
            #expect(theme.shadow.contrast(with: theme.background) >= 3, "\(theme.name): outline on background")
            #expect(theme.shadow.contrast(with: theme.characterKey) >= 3, "\(theme.name): outline on key")
            // The locked modifier's light on its key.
            #expect(theme.accent.contrast(with: theme.characterKey) >= 3, "\(theme.name): light on key")
        }

        @Test(arguments: Theme.all)
        func everyThemesLabelsAreAtLeastAA(_ theme: Theme) {
            for pair in Self.pairs(theme) where pair.name != "accent label on accent" {
                #expect(pair.ink.contrast(with: pair.fill) >= 4.5, "\(theme.name): \(pair.name)")
            }
        }

        @Test func theRatioIsWCAGs() {
            #expect(Color(hex: 0x000000).contrast(with: Color(hex: 0xFFFFFF)) == 21)
            #expect(Color(hex: 0x777777).contrast(with: Color(hex: 0xFFFFFF)) > 4.47)
            #expect(Color(hex: 0x777777).contrast(with: Color(hex: 0xFFFFFF)) < 4.49)
            #expect(Color(hex: 0x123456).contrast(with: Color(hex: 0x123456)) == 1)
        }
    }

    /// The label size setting: larger labels put more ink on a key, up to what the key holds.
    @Suite struct LabelSizeTests {
        @Test func largerLabelsInkMoreOfTheKeyAndStayInIt() throws {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 390, height: 260)
            let key = try #require(geometry.keys.first { $0.name == "w" }).rect
            func ink(_ scale: Double) throws -> Int {
                let renderer = KeyboardRenderer(theme: .light)
                renderer.labelScale = scale
                let surface = try Surface(width: 390, height: 260)
                try renderer.draw(geometry, on: surface)
                let fill = pixels(surface, in: Rect(x: key.x + 2, y: key.y + 2, width: 1, height: 1))[0]
                return pixels(surface, in: Rect(x: key.x + 1, y: key.y + 1, width: key.width - 2, height: key.height - 2))
                    .filter { $0 != fill }.count
            }
            let (normal, large, largest) = (try ink(1), try ink(1.5), try ink(2))
            #expect(large > normal * 3 / 2)
            // Capped by the key: a label never outgrows it.
            #expect(largest >= large)
        }
    }

    /// A long label that one line would shrink below 11 px takes two lines, as "Emergency call" on a pad's
    /// Return key; short labels, and words with no space, stay on one line.
    @Suite struct LongLabelTests {
        @Test func aLongLabelBreaksRatherThanShrinkingOutOfSight() {
            let renderer = KeyboardRenderer()
            let one = renderer.fittedLabel("Emergency call", size: 20, maxWidth: 400)
            #expect(one.text == "Emergency call" && one.size == 20)
            let narrow = renderer.fittedLabel("Emergency call", size: 20, maxWidth: 70)
            #expect(narrow.text == "Emergency\ncall" && narrow.size >= KeyboardRenderer.smallestLabel)
            let word = renderer.fittedLabel("Supercalifragilistic", size: 20, maxWidth: 70)
            #expect(!word.text.contains("\n") && word.size < 20)
        }
    }
}
