import KeyboardModel
import Render
import TestSupport
import Testing

/// The digest of a frame, which decides whether a picture kept from an earlier start is shown in place of
/// drawing: the same for the same frame, another for any change of what is drawn.
extension Rendering { @Suite struct FrameDigestTests {
    let renderer = KeyboardRenderer()

    static func geometry(_ type: KeyboardType = .default, width: Int = 1024, height: Int = 320) throws -> KeyboardGeometry {
        try KeyboardLayoutEngine.layout(bundledLayout(type), width: width, height: height)
    }

    func digest(_ geometry: KeyboardGeometry, _ state: KeyboardState = KeyboardState(), handle: Rect? = nil,
                context: [String] = ["keypane 1", "fonts"], renderer: KeyboardRenderer? = nil) -> UInt64 {
        (renderer ?? self.renderer).frameDigest(of: geometry, state: state, handle: handle, context: context).value
    }

    @Test func theSameFrameHasTheSameDigest() throws {
        let one = digest(try Self.geometry())
        #expect(one == digest(try Self.geometry()))
        // Another renderer with the same theme and label size: the digest is of the frame, not the renderer.
        #expect(one == digest(try Self.geometry(), renderer: KeyboardRenderer()))
    }

    @Test func anyChangeOfWhatIsDrawnChangesIt() throws {
        let geometry = try Self.geometry()
        let base = digest(geometry)
        var digests: [String: UInt64] = [:]
        digests["size"] = digest(try Self.geometry(width: 1023))
        digests["type"] = digest(try Self.geometry(.email))
        var relabelled = geometry
        let letter = try #require(relabelled.keys.firstIndex { $0.label == "q" })
        relabelled.keys[letter].label = "Q"
        digests["label"] = digest(relabelled)
        var moved = geometry
        moved.keys[letter].rect.x += 1
        digests["rect"] = digest(moved)
        var restyled = geometry
        restyled.keys[letter].style = .function
        digests["style"] = digest(restyled)
        var secondary = geometry
        secondary.keys[letter].secondary = "1"
        digests["secondary"] = digest(secondary)
        var flat = geometry
        flat.keys[letter].flat = true
        digests["flat"] = digest(flat)

        digests["shift"] = digest(geometry, KeyboardState(shift: .on))
        digests["caps lock"] = digest(geometry, KeyboardState(shift: .capsLock))
        digests["pressed"] = digest(geometry, KeyboardState(pressed: [letter]))
        digests["modifier"] = digest(geometry, KeyboardState(modifiers: ["Control_L"]))
        var scanned = KeyboardState()
        scanned.scanned = [0, 1, 2]
        digests["scanned"] = digest(geometry, scanned)
        var dwell = KeyboardState()
        dwell.dwell = (key: letter, progress: 0.5)
        digests["dwell"] = digest(geometry, dwell)
        var bar = KeyboardState()
        bar.bar = [BarSlot(text: "the"), BarSlot(text: "to")]
        digests["bar"] = digest(geometry, bar)
        var otherBar = KeyboardState()
        otherBar.bar = [BarSlot(text: "the", look: .typed), BarSlot(text: "to")]
        digests["bar look"] = digest(geometry, otherBar)
        digests["handle"] = digest(geometry, handle: Rect(x: 0, y: 320, width: 1024, height: 24))
        digests["program"] = digest(geometry, context: ["keypane 2", "fonts"])
        digests["fonts"] = digest(geometry, context: ["keypane 1", "other fonts"])
        // Context strings are kept apart: moving a character from one to the next is another digest.
        digests["context split"] = digest(geometry, context: ["keypane 1f", "onts"])
        let dark = KeyboardRenderer(theme: .dark)
        digests["theme"] = digest(geometry, renderer: dark)
        let larger = KeyboardRenderer()
        larger.labelScale = 1.25
        digests["label size"] = digest(geometry, renderer: larger)

        for (change, digest) in digests { #expect(digest != base, "\(change)") }
        #expect(Set(digests.values).count == digests.count, "two changes gave one digest: \(digests)")
    }

    /// Every stored property of the types a frame is drawn from goes into the digest: a property added to
    /// one of them fails here until `frameDigest` takes it in (and this list names it).
    @Test func theDigestCoversEveryPropertyOfTheFrame() throws {
        let geometry = try Self.geometry()
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        #expect(labels(geometry) == ["layoutName", "type", "layer", "layers", "width", "height", "widthClass", "keys",
                                     "gap", "margin", "keyHeight"])
        #expect(labels(geometry.keys[0]) == ["rect", "function", "label", "icon", "secondary", "alternates", "style",
                                             "secondaryBelow", "flat"])
        #expect(labels(KeyboardState()) == ["pressed", "shift", "modifiers", "lockedModifiers", "dwellKey",
                                            "dwellProgress", "scanned", "dwellPaused", "popups", "bar", "trail", "trackpad"])
        #expect(labels(BarSlot(text: "a")) == ["text", "look"])
        #expect(labels(Rect(x: 0, y: 0, width: 1, height: 1)) == ["x", "y", "width", "height"])
    }
} }
