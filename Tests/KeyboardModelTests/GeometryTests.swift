import KeyboardModel
import TestSupport
import Testing

/// Widths from the narrowest phone to a 4K screen, on both sides of the width-class threshold.
let testWidths = [320, 321, 375, 414, 600, 767, 768, 800, 1024, 1080, 1366, 1920, 2560, 3840]

/// A keyboard height for a width, as the live keyboard would choose it.
func testHeight(_ width: Int) -> Int { max(200, min(width * 2 / 5, 600)) }

@Suite struct GeometryTests {
    @Test(arguments: KeyboardType.withLayoutFiles)
    func keysStayInsideTheBoundsAndNeverOverlap(type: KeyboardType) throws {
        let layout = bundledLayout(type)
        for width in testWidths {
            for layer in layout.layers {
                let height = testHeight(width)
                let geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: width, height: height)
                let bounds = Rect(x: 0, y: 0, width: width, height: height)
                for (i, key) in geometry.keys.enumerated() {
                    #expect(key.rect.x >= 0 && key.rect.y >= 0 && key.rect.maxX <= width && key.rect.maxY <= height,
                            "\(type) \(layer) \(width): \(key.name) at \(key.rect) leaves \(bounds)")
                    for other in geometry.keys[(i + 1)...] {
                        #expect(!key.rect.intersects(other.rect), "\(type) \(layer) \(width): \(key.name) overlaps \(other.name)")
                    }
                }
            }
        }
    }

    @Test(arguments: KeyboardType.withLayoutFiles)
    func rowsFillTheWidthAndKeysStayUsable(type: KeyboardType) throws {
        let layout = bundledLayout(type)
        for width in testWidths {
            for layer in layout.layers {
                let geometry = try KeyboardLayoutEngine.layout(layout, layer: layer, width: width, height: testHeight(width))
                let layoutRows = layout.rows(layer: layer, widthClass: geometry.widthClass)
                let placed = rows(of: geometry)
                #expect(placed.count == layoutRows.count)
                var previousBottom = 0
                for (row, source) in zip(placed, layoutRows) {
                    // Rows reach both margins, unless the layout starts or ends them with a gap.
                    if case .key = source.items.first! { #expect(row.first!.rect.x == geometry.margin.x) }
                    if case .key = source.items.last! {
                        #expect(row.last!.rect.maxX == width - geometry.margin.x, "\(type) \(layer) \(width)")
                    }
                    for key in row {
                        #expect(key.rect.width >= 22, "\(type) \(layer) \(width): \(key.name) is \(key.rect.width) px wide")
                        #expect(key.rect.height >= KeyboardLayoutEngine.minimumKeyHeight)
                    }
                    #expect(row[0].rect.y >= previousBottom)
                    previousBottom = row[0].rect.maxY
                }
            }
        }
    }

    @Test func widthClassFollowsTheThreshold() throws {
        let layout = bundledLayout(.default)
        let narrow = try KeyboardLayoutEngine.layout(layout, width: 767, height: 300)
        let wide = try KeyboardLayoutEngine.layout(layout, width: 768, height: 300)
        #expect(narrow.widthClass == .compact)
        #expect(wide.widthClass == .regular)
        #expect(!narrow.keys.contains { $0.function == .keysym("Tab") })
        let regularExtras = wide.keys.map(\.function)
        #expect(regularExtras.contains(.keysym("Tab")))
        #expect(regularExtras.contains(.capsLock))
        #expect(regularExtras.filter { $0 == .shift }.count == 2)
        #expect(regularExtras.contains(.dismiss))
    }

    @Test func sizesThatCannotWorkAreRefused() {
        let layout = bundledLayout(.default)
        #expect(throws: GeometryError.widthOutOfRange(319)) {
            try KeyboardLayoutEngine.layout(layout, width: 319, height: 300)
        }
        #expect(throws: GeometryError.self) { try KeyboardLayoutEngine.layout(layout, width: 1000, height: 60) }
        #expect(throws: GeometryError.unknownLayer("pad", layers: layout.layers)) {
            try KeyboardLayoutEngine.layout(layout, layer: "pad", width: 1000, height: 300)
        }
    }

    @Test func theGlobeKeyShowsOnlyWithMoreThanOneKeyboard() throws {
        for type in KeyboardType.withLayoutFiles {
            let layout = bundledLayout(type)
            for width in [375, 1024] {
                let with = try KeyboardLayoutEngine.layout(layout, width: width, height: 300,
                                                           options: LayoutOptions(showsGlobe: true))
                let without = try KeyboardLayoutEngine.layout(layout, width: width, height: 300,
                                                              options: LayoutOptions(showsGlobe: false))
                #expect(with.keys.filter { $0.function == .globe }.count == 1, "\(type) \(width)")
                #expect(!without.keys.contains { $0.function == .globe }, "\(type) \(width)")
                // (A phone's keyboard with a Globe key lists dismiss under it instead of showing the key.)
                let counted = { (g: KeyboardGeometry) in g.keys.filter { $0.function != .dismiss }.count }
                #expect(counted(without) == counted(with) - 1)
                // The row that held the globe still spans the same width.
                let globeRow = with.keys.first { $0.function == .globe }!.rect.y
                let before = with.keys.filter { $0.rect.y == globeRow }
                let after = without.keys.filter { $0.rect.y == globeRow }
                #expect(before.map(\.rect.maxX).max() == after.map(\.rect.maxX).max())
                #expect(before.map(\.rect.x).min() == after.map(\.rect.x).min())
            }
        }
    }

    @Test func spaceTakesTheGlobesWidth() throws {
        let layout = bundledLayout(.default)
        let with = try KeyboardLayoutEngine.layout(layout, width: 1024, height: 320)
        let without = try KeyboardLayoutEngine.layout(layout, width: 1024, height: 320,
                                                      options: LayoutOptions(showsGlobe: false))
        let space = { (g: KeyboardGeometry) in g.keys.first { $0.function.isSpace }!.rect.width }
        #expect(space(without) > space(with) + 20)
    }

    @Test func theReturnKeyShowsItsJob() throws {
        let layout = bundledLayout(.default)
        for returnKey in ReturnKeyType.allCases {
            for width in [375, 1024] {
                let geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: 300,
                                                               options: LayoutOptions(returnKey: returnKey))
                let key = try #require(geometry.keys.first { $0.function == .keysym("Return") })
                switch returnKey {
                case .default:
                    // iOS's word, on phone and tablet alike.
                    #expect(key.label == "return" && key.icon == nil)
                default:
                    #expect(key.label == returnKey.label && key.icon == nil)
                }
                #expect((key.style == .prominent) == returnKey.isProminent)
            }
        }
        #expect(ReturnKeyType.emergencyCall.label == "Emergency call")
        #expect(ReturnKeyType.go.isProminent && !ReturnKeyType.next.isProminent)
    }

    /// On a pad whose digits carry letters, every digit sits where the lettered ones do (1 and 0 too), and
    /// 0's "+" goes under it, as on iOS; the desktop keyboard's shifted characters stay above.
    @Test func padDigitsShareOneBaseline() throws {
        for type in [KeyboardType.phonePad, .numberPad, .decimalPad, .asciiNumberPad] {
            let pad = try KeyboardLayoutEngine.layout(bundledLayout(type), width: 390, height: 260)
            let digits = pad.keys.filter { if case .text(let t) = $0.function { t.first!.isNumber } else { false } }
            #expect(digits.count == 10 && digits.allSatisfy(\.secondaryBelow), "\(type)")
        }
        let desktop = try KeyboardLayoutEngine.layout(bundledLayout(.desktop), width: 1024, height: 360)
        #expect(desktop.keys.first { $0.label == "1" }.map { $0.secondary == "!" && !$0.secondaryBelow } == true)
    }

    /// Pads have four rows, as iOS's, and at every width no key is more than twice as wide as it is tall: on a
    /// wide screen the pad is centred rather than stretched.
    @Test func padsKeepTheirProportionsAtEveryWidth() throws {
        for type in [KeyboardType.numberPad, .phonePad, .decimalPad, .asciiNumberPad] {
            for width in [320, 390, 768, 1024, 1280, 1920] {
                let pad = try KeyboardLayoutEngine.layout(bundledLayout(type), width: width, height: width < 768 ? 260 : 320)
                #expect(Set(pad.keys.map(\.rect.y)).count == 4, "\(type) at \(width)")
                for key in pad.keys {
                    #expect(key.rect.width <= 2 * key.rect.height + 1, "\(type) at \(width): \(key.name) \(key.rect)")
                }
                let left = pad.keys.map(\.rect.x).min()!, right = pad.keys.map(\.rect.maxX).max()!
                #expect(abs(left - (width - right)) <= 2, "\(type) at \(width): centred")
            }
        }
        let names = try KeyboardLayoutEngine.layout(bundledLayout(.namePhonePad), layer: "numbers", width: 1280, height: 320)
        #expect(names.keys.allSatisfy { $0.rect.width <= 2 * $0.rect.height + 1 })
    }

    @Test func padsShowPhoneLetters() throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.numberPad), width: 375, height: 260)
        let two = try #require(geometry.keys.first { $0.function == .text("2") })
        #expect(two.secondary == "ABC")
        #expect(geometry.keys.first { $0.function == .text("7") }?.secondary == "PQRS")
        // As on iOS, the decimal and ASCII number pads carry the letters too.
        for type in [KeyboardType.decimalPad, .asciiNumberPad] {
            let pad = try KeyboardLayoutEngine.layout(bundledLayout(type), width: 375, height: 260)
            #expect(pad.keys.first { $0.function == .text("2") }?.secondary == "ABC", "\(type)")
        }
    }

    @Test func iconsAndLabels() throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 1024, height: 320)
        let icons = Set(geometry.keys.compactMap(\.icon))
        #expect(icons == [.globe, .shift, .delete, .dismiss])
        // A tablet's words: "caps lock"; the space bar bare; a phone's space bar says "space".
        #expect(geometry.keys.contains { $0.label == "caps lock" && $0.function == .capsLock })
        #expect(geometry.keys.first { $0.function.isSpace }.map { $0.label == nil && $0.icon == nil && $0.name == "space" } == true)
        let phone = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 375, height: 260)
        #expect(phone.keys.first { $0.function.isSpace }?.label == "space")
        #expect(geometry.keys.contains { $0.label == ".?123" && $0.function == .layer("numbers") })
        let numbers = try KeyboardLayoutEngine.layout(bundledLayout(.default), layer: "numbers", width: 375, height: 260)
        #expect(numbers.keys.contains { $0.label == "#+=" && $0.function == .layer("symbols") })
        #expect(numbers.keys.contains { $0.label == "ABC" && $0.function == .layer("letters") })
    }
}

@Suite struct HitTestTests {
    /// Every point maps to the nearest key, or, farther than half that key's height from every key (the
    /// number pad's empty corner), to none.
    @Test(arguments: [KeyboardType.default, .desktop, .numberPad, .url])
    func everyPointInsideMapsToTheNearestKey(type: KeyboardType) throws {
        var none = 0
        for width in [320, 1024] {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(type), width: width, height: 300)
            for x in stride(from: 0.5, to: Double(width), by: 3) {
                for y in stride(from: 0.5, to: 300.0, by: 3) {
                    let nearest = geometry.keys.indices.min {
                        geometry.keys[$0].rect.squaredDistance(x: x, y: y) < geometry.keys[$1].rect.squaredDistance(x: x, y: y)
                    }!
                    let distance = geometry.keys[nearest].rect.squaredDistance(x: x, y: y)
                    guard let index = geometry.keyIndex(atX: x, y: y) else {
                        #expect(distance * 4 > Double(geometry.keys[nearest].rect.height * geometry.keys[nearest].rect.height))
                        none += 1
                        continue
                    }
                    #expect(geometry.keys[index].rect.squaredDistance(x: x, y: y) == distance)
                }
            }
        }
        // Only the number pad has an empty part.
        #expect((none > 0) == (type == .numberPad), "\(none)")
    }

    @Test func keyCentresHitTheirKeys() throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 375, height: 260)
        for (index, key) in geometry.keys.enumerated() {
            let x = Double(key.rect.x) + Double(key.rect.width) / 2
            let y = Double(key.rect.y) + Double(key.rect.height) / 2
            #expect(geometry.keyIndex(atX: x, y: y) == index)
        }
    }

    @Test func aGapGoesToTheNearerKey() throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 375, height: 260)
        let q = geometry.keys[0], w = geometry.keys[1]
        #expect(q.function == .text("q") && w.function == .text("w"))
        let y = Double(q.rect.y + q.rect.height / 2)
        #expect(geometry.keyIndex(atX: Double(q.rect.maxX) + 0.4, y: y) == 0)
        #expect(geometry.keyIndex(atX: Double(w.rect.x) - 0.4, y: y) == 1)
        // Left of "a", in the half-key indent of the second row, is "a".
        let a = try #require(geometry.keys.firstIndex { $0.function == .text("a") })
        #expect(geometry.keyIndex(atX: 3, y: Double(geometry.keys[a].rect.y + geometry.keys[a].rect.height / 2)) == a)
    }

    @Test func pointsOutsideHitNothing() throws {
        let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.default), width: 375, height: 260)
        #expect(geometry.keyIndex(atX: -1, y: 10) == nil)
        #expect(geometry.keyIndex(atX: 10, y: 260) == nil)
        #expect(geometry.keyIndex(atX: 375, y: 10) == nil)
    }
}

/// The desktop keyboard's fn layer (issue 20, item 9): each key once, the arrows an inverted T.
@Suite struct DesktopFnLayerTests {
    @Test func theArrowsAreAnInvertedTAndNoKeyIsTwice() throws {
        for (width, height) in [(320, 230), (390, 250), (1024, 320), (1920, 420)] {
            let geometry = try KeyboardLayoutEngine.layout(bundledLayout(.desktop), layer: "numbers", width: width, height: height)
            let named = { (name: String) in geometry.keys.filter { $0.function == .keysym(name) } }
            for name in ["Delete", "Home", "End", "Prior", "Next", "Insert", "BackSpace", "Return", "F12"] {
                #expect(named(name).count == 1, "\(name) at \(width)")
            }
            let up = try #require(named("Up").first), down = try #require(named("Down").first)
            let left = try #require(named("Left").first), right = try #require(named("Right").first)
            #expect(abs((up.rect.x + up.rect.maxX) - (down.rect.x + down.rect.maxX)) <= 2 && up.rect.maxY < down.rect.y, "\(width)")
            #expect(left.rect.y == down.rect.y && right.rect.y == down.rect.y && left.rect.maxX < down.rect.x
                    && down.rect.maxX < right.rect.x, "\(width)")
        }
    }
}
