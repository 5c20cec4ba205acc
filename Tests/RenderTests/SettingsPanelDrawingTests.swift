import KeyboardModel
import Render
import TestSupport
import Testing

extension Rendering {
    /// The settings panel drawn: every page readable at every width a keyboard takes (labels of 11 px or
    /// more, inside their rows), each row showing its value, and a snapshot of every page at phone and
    /// tablet width in each theme.
    @Suite struct SettingsPanelDrawingTests {
        static let panel = SettingsPanel(values: ["theme": "high-contrast-dark", "sound": "off"], locked: ["floating"],
                                         keyboards: SettingsPanel.offeredKeyboards(available: bundled.available, emoji: true),
                                         about: [("Version", "keypane 1.0 (commit 0000000)")])

        static func geometry(_ layer: String, width: Int, height: Int, panel: SettingsPanel = panel) throws -> KeyboardGeometry {
            try KeyboardLayoutEngine.layout(panel.layout(), layer: layer, width: width, height: height)
        }

        /// The panel in each shipped language's words: every label readable and inside its row at a phone's
        /// width and a tablet's, with the values of the longest choices.
        @Test(arguments: bundledPanelWords.keys.sorted())
        func everyLanguagesLabelsAreReadableAndInsideTheirRows(language: String) throws {
            let words = try #require(bundledPanelWords[language])
            var problems: [String] = []
            let renderer = KeyboardRenderer()
            for values in [["theme": "high-contrast-dark", "height": "40%", "auto-show": "touch"],
                           ["theme": "desktop", "autocapitalization": "sentences", "scan": "step"]] {
                var panel = SettingsPanel(values: values, locked: ["floating"],
                                          keyboards: SettingsPanel.offeredKeyboards(available: bundled.available, emoji: true),
                                          about: [("Version", "keypane 1.0 (commit 0000000)")], words: words)
                panel.confirming = "forget"
                for width in [320, 375, 1024] {
                    for rowHeight in [44, 60] {
                        for layer in panel.layers {
                            let geometry = try Self.geometry(layer, width: width, height: rowHeight * 5 + rowHeight / 2, panel: panel)
                            for label in try renderer.labels(of: geometry) {
                                if label.size < KeyboardRenderer.smallestLabel - 0.05 {
                                    problems.append("\(layer) '\(label.text)' drawn at \(label.size) px at \(width)")
                                }
                                if !label.isInside { problems.append("\(layer) '\(label.text)' outside its row at \(width)x\(rowHeight)") }
                            }
                        }
                    }
                }
            }
            #expect(problems.isEmpty, "\(language): \(problems.count):\n\(problems.prefix(30).joined(separator: "\n"))")
        }

        @Test func everyLabelIsReadableAndInsideItsRow() throws {
            let renderer = KeyboardRenderer()
            var problems: [String] = []
            for width in [320, 375, 768, 1024, 1280, 1920] {
                // Docked keyboards' rows: 44 px at the least, 60 px roomy; five rows with the bar's share.
                for rowHeight in [44, 60] {
                    for layer in Self.panel.layers {
                        let geometry = try Self.geometry(layer, width: width, height: rowHeight * 5 + rowHeight / 2)
                        for label in try renderer.labels(of: geometry) {
                            if label.size < KeyboardRenderer.smallestLabel - 0.05 {
                                problems.append("\(layer) '\(label.text)' drawn at \(label.size) px at \(width)")
                            }
                            if !label.isInside { problems.append("\(layer) '\(label.text)' outside its row at \(width)x\(rowHeight)") }
                        }
                    }
                }
            }
            #expect(problems.isEmpty, "\(problems.count):\n\(problems.prefix(30).joined(separator: "\n"))")
        }

        @Test func eachRowShowsItsTitleAndValue() throws {
            let geometry = try Self.geometry("look", width: 1024, height: 300)
            let texts = try KeyboardRenderer().labels(of: geometry).map(\.text)
            for text in ["Theme", "High Contrast Dark", "Floating", "Set by the administrator", "Done", "‹ Settings"] {
                #expect(texts.contains(text), "\(text) not drawn: \(texts)")
            }
            let sound = try KeyboardRenderer().labels(of: Self.geometry("sound", width: 375, height: 260)).map(\.text)
            #expect(sound.contains("Input Click") && sound.contains("Off"))
        }

        @Test(arguments: Theme.all)
        func everyPageInBothClasses(theme: Theme) throws {
            for page in Self.panel.pages.map(\.id) + [SettingsPanel.entryLayer] {
                for (widthClass, width, height) in snapshotSizes {
                    let geometry = try Self.geometry(page, width: width, height: height)
                    let surface = try Surface(width: width, height: height)
                    try KeyboardRenderer(theme: theme).draw(geometry, on: surface)
                    try SnapshotTests().compare(surface, toSnapshot: "settings-\(page)-\(widthClass.rawValue)-\(theme.name)")
                }
            }
        }
    }
}
