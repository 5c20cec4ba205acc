import CCairo
import KeyboardModel
import Render
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Snapshots live in Snapshots/ beside this file. Set KEYPANE_RECORD_SNAPSHOTS=1 to write them anew.
let snapshotDirectory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/") + "/Snapshots"
}()

let recording = getenv("KEYPANE_RECORD_SNAPSHOTS").map { String(cString: $0) == "1" } ?? false

/// The two sizes snapshots are taken at: an iPhone-like compact keyboard and an iPad-like regular one.
let snapshotSizes: [(WidthClass, Int, Int)] = [(.compact, 375, 260), (.regular, 1024, 340)]

/// A pixel comparison: how many pixels differ by more than `tolerance` in any channel.
func differingPixels(_ a: Surface, _ b: Surface, tolerance: Int = 24) -> Int {
    precondition(a.width == b.width && a.height == b.height)
    return a.withPixels { pa, stride in
        b.withPixels { pb, _ in
            var count = 0
            for y in 0..<a.height {
                for x in 0..<(a.width * 4) where abs(Int(pa[y * stride + x]) - Int(pb[y * stride + x])) > tolerance {
                    count += 1
                }
            }
            return count
        }
    }
}

/// Loads a PNG into a surface, or nil when there is none.
func loadPNG(_ path: String) -> (width: Int, height: Int, surface: Surface)? {
    guard access(path, R_OK) == 0, let image = cairo_image_surface_create_from_png(path),
          cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return nil }
    defer { cairo_surface_destroy(image) }
    let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
    guard let copy = try? Surface(width: width, height: height) else { return nil }
    copy.withUnsafeCairoSurface { target in
        let cr = cairo_create(target)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
    }
    return (width, height, copy)
}

func render(_ type: KeyboardType, width: Int, height: Int, theme: Theme, layer: String? = nil,
            state: KeyboardState = KeyboardState()) throws -> (KeyboardGeometry, Surface) {
    let geometry = try KeyboardLayoutEngine.layout(bundledLayout(type), layer: layer, width: width, height: height)
    let surface = try Surface(width: width, height: height)
    try KeyboardRenderer(theme: theme).draw(geometry, state: state, on: surface)
    return (geometry, surface)
}

extension Rendering {
    @Suite struct SnapshotTests {
        @Test(arguments: KeyboardType.withLayoutFiles)
        func everyTypeInBothClassesAndThemes(type: KeyboardType) throws {
            for (widthClass, width, height) in snapshotSizes {
                for theme in Theme.all {
                    let name = "\(type.rawValue)-\(widthClass.rawValue)-\(theme.name)"
                    let (geometry, surface) = try render(type, width: width, height: height, theme: theme)
                    #expect(geometry.widthClass == widthClass)
                    try compare(surface, toSnapshot: name)
                }
            }
        }

        /// Every language's keyboard in both classes (the light theme; the themes are the types' snapshots'
        /// business), with their keys' words in their language, and the Globe list naming languages in their own
        /// scripts.
        @Test(arguments: languageLayouts)
        func everyLanguageInBothClasses(name: String) throws {
            for (widthClass, width, height) in snapshotSizes {
                let layout = try #require(bundled[name])
                var options = LayoutOptions(showsGlobe: true)
                options.labels = layout.labels
                let geometry = try KeyboardLayoutEngine.layout(layout, width: width, height: height, options: options)
                #expect(geometry.widthClass == widthClass)
                let surface = try Surface(width: width, height: height)
                try KeyboardRenderer(theme: .light).draw(geometry, on: surface)
                try compare(surface, toSnapshot: "language-\(name)-\(widthClass.rawValue)")
            }
        }

        @Test func theGlobeListNamesLanguagesInTheirOwnScripts() throws {
            for (widthClass, width, height) in snapshotSizes {
                let geometry = try KeyboardLayoutEngine.layout(try #require(bundled["ru"]), width: width, height: height,
                                                               options: LayoutOptions(showsGlobe: true))
                let popup = try #require(Popup.keyboards(["English (US)", "Deutsch", "Русский", "Ελληνικά", "Türkçe"],
                                                         selected: 2, in: geometry))
                let surface = try Surface(width: width, height: height)
                try KeyboardRenderer(theme: .light).draw(geometry, state: KeyboardState(pressed: [popup.key], popups: [popup]),
                                                         on: surface)
                try compare(surface, toSnapshot: "popup-languages-\(widthClass.rawValue)")
            }
        }

        /// The popups as the live keyboard draws them: the balloon over a pressed key, a held key's accents
        /// with one chosen, the Globe key's list (with "Hide keyboard" where the keyboard has no dismiss key).
        @Test(arguments: ["preview", "alternates", "keyboards"])
        func popupsInBothClassesAndThemes(kind: String) throws {
            for (widthClass, width, height) in snapshotSizes {
                for theme in [Theme.light, .dark] {
                    let type: KeyboardType = kind == "keyboards" ? .email : .default
                    let geometry = try KeyboardLayoutEngine.layout(bundledLayout(type), width: width, height: height,
                                                                   options: LayoutOptions(showsSuggestions: true))
                    let e = try #require(geometry.keys.firstIndex { $0.function == .text("e") })
                    let popup: Popup? = switch kind {
                    case "preview": Popup.preview(of: e, in: geometry)
                    case "alternates": Popup.alternates(of: e, in: geometry, selected: 2)
                    default: Popup.keyboards(["English (US)", "Desktop (US)", "Email address"], selected: 2, in: geometry)
                    }
                    let shown = try #require(popup)
                    let surface = try Surface(width: width, height: height)
                    try KeyboardRenderer(theme: theme).draw(geometry, state: KeyboardState(pressed: [shown.key], popups: [shown]),
                                                            on: surface)
                    try compare(surface, toSnapshot: "popup-\(kind)-\(widthClass.rawValue)-\(theme.name)")
                }
            }
        }

        func compare(_ surface: Surface, toSnapshot name: String) throws {
            let path = "\(snapshotDirectory)/\(name).png"
            if recording {
                try surface.writePNG(to: path)
                return
            }
            let expected = try #require(loadPNG(path), "no snapshot \(path): run with KEYPANE_RECORD_SNAPSHOTS=1")
            #expect(expected.width == surface.width && expected.height == surface.height)
            let differing = differingPixels(surface, expected.surface)
            // A little room for font rendering; a moved key or label changes thousands of pixels.
            if differing > surface.width * surface.height * 4 / 500 {
                try? surface.writePNG(to: "/tmp/keypane-snapshot-\(name).png")
                Issue.record("\(name): \(differing) channel values differ; actual in /tmp/keypane-snapshot-\(name).png")
            }
        }
    }
}
