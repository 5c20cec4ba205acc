import KeyboardModel
import Render
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Rendering {
    /// Every label of every keyboard, layer and width, at the heights a docked keyboard takes (its rows at
    /// the smallest row height docking allows, 44 px, and at a roomier 60 px), is drawn at 11 px or more and
    /// inside its key: text a person can read, never cut by a key's edge.
    @Suite struct LabelFitTests {
        static let widths = [320, 390, 768, 1024, 1280, 1920]

        /// Every keyboard type's layout, and every language's.
        static let layouts = KeyboardType.withLayoutFiles.map(\.rawValue) + languageLayouts

        @Test(arguments: layouts)
        func everyLabelIsReadableAndInsideItsKey(name: String) throws {
            let layout = try #require(bundled[name])
            let type = layout.type
            let renderer = KeyboardRenderer()
            var problems: [String] = []
            for width in Self.widths {
                let widthClass = WidthClass(width: width)
                for layer in layout.layers {
                    let rows = Double(layout.rows(layer: layer, widthClass: widthClass).count)
                    let returnKeys: [ReturnKeyType] = layer == layout.defaultLayer ? [.default, .emergencyCall, .continue] : [.default]
                    for rowHeight in [44.0, 60.0] {
                        for returnKey in returnKeys {
                            // A language's keyboard with its name on the space bar, as when several are enabled.
                            let options = LayoutOptions(returnKey: returnKey, showsSuggestions: true,
                                                        spaceLabel: layout.language != nil ? layout.title : nil)
                            let bar = type.hasSuggestionBar ? KeyboardLayoutEngine.barShare : 0
                            let height = Int(((rows + bar) * rowHeight).rounded())
                            let geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: width, height: height,
                                                                           options: options)
                            var state = KeyboardState()
                            state.bar = [BarSlot(text: "because", look: .typed), BarSlot(text: "becomes", look: .correction),
                                         BarSlot(text: "information", look: .plain)]
                            for label in try renderer.labels(of: geometry, state: state) {
                                let name = "\(layer) '\(label.text)'"
                                if label.size < KeyboardRenderer.smallestLabel - 0.05 {
                                    problems.append("\(name) drawn at \((label.size * 10).rounded() / 10) px at \(width)x\(height)")
                                }
                                if !label.isInside { problems.append("\(name) outside its key \(label.box) at \(width)x\(height): \(label.ink)") }
                            }
                        }
                    }
                }
            }
            // One line per label and layer: the first size it failed at.
            var seen = Set<String>(), lines: [String] = []
            for problem in problems where seen.insert(String(problem.prefix { $0 != "@" }.split(separator: " drawn")[0].split(separator: " outside")[0])).inserted {
                lines.append(problem)
            }
            #expect(problems.isEmpty, "\(name): \(problems.count) labels:\n\(lines.prefix(40).joined(separator: "\n"))")
        }

        /// A pad's decimal point is a mark a finger can find (iOS draws it large), level with the digits'
        /// middle, not a 2 px dot on the baseline.
        @Test func aPadsDecimalPointIsLargeAndLevelWithTheDigits() throws {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.decimalPad), width: 390, height: 216)
            let labels = try KeyboardRenderer().labels(of: geometry)
            let point = try #require(labels.first { $0.text == "." }), zero = try #require(labels.first { $0.text == "0" })
            #expect(point.ink.width >= 4 && point.ink.height >= 4, "\(point.ink)")
            let middle = { (l: DrawnLabel) in l.ink.y + l.ink.height / 2 }
            #expect(abs(middle(point) - middle(zero)) <= 3)
        }

        /// Labels are drawn at a few sizes, whatever the keyboard's size: cairo keeps the glyphs of every size
        /// drawn, so sizes worked out to the last fraction (a new one for each keyboard size and shrunk word)
        /// grew the keyboard's memory with each resize. Every size is at most 3% below the one worked out,
        /// and no label that was readable becomes smaller than `smallestLabel`.
        @Test func labelsAreDrawnAtAFewSizesWhateverTheKeyboardsSize() throws {
            let renderer = KeyboardRenderer()
            var sizes = Set<Double>()
            for width in stride(from: 320, through: 1920, by: 40) {
                for type in [KeyboardType.default, .numbersPunctuation, .email, .desktop] {
                    let geometry = try KeyboardLayoutEngine.layout(bundledLayout(type), width: width, height: width * 3 / 8)
                    for label in try renderer.labels(of: geometry) { sizes.insert(label.size) }
                }
            }
            // 41 widths of 4 keyboards, whose labels were drawn at 325 sizes before: now each size is a step of
            // the ladder (or `smallestLabel`), 74 from the smallest secondary label to the largest letter.
            let ladder = { (size: Double) in abs((log2(size) * 24).rounded() - log2(size) * 24) < 1e-6 }
            #expect(sizes.allSatisfy { ladder($0) || $0 == KeyboardRenderer.smallestLabel }, "\(sizes.sorted())")
            #expect(sizes.count <= 80, "\(sizes.count) sizes: \(sizes.sorted())")
            for size in stride(from: 0.5, through: 120, by: 0.37) {
                let drawn = KeyboardRenderer.drawnSize(size)
                #expect(drawn <= size && drawn >= size * 0.97, "\(size) drawn at \(drawn)")
                if size >= KeyboardRenderer.smallestLabel { #expect(drawn >= KeyboardRenderer.smallestLabel) }
            }
        }

        /// The report sees a label that is too small and one that leaves its key, so the test above can fail.
        @Test func theReportSeesSmallAndOverflowingLabels() throws {
            let library = try LayoutLibrary(texts: ["tiny": (text: """
                type default
                layers letters
                layer letters compact
                row Mississippi*0.2 a*5 b*5
                layer letters regular
                row Mississippi*0.2 a*5 b*5
                """, file: "tiny.layout")])
            let geometry = try KeyboardLayoutEngine.layout(library["tiny"]!, width: 390, height: 60)
            let labels = try KeyboardRenderer().labels(of: geometry)
            let long = try #require(labels.first { $0.text == "Mississippi" })
            #expect(long.size < KeyboardRenderer.smallestLabel)
            #expect(labels.first { $0.text == "a" }.map { $0.size >= 11 && $0.isInside } == true)
        }
    }
}
