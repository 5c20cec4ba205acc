import Basics
import KeyboardModel
import Render
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Rendering {
    /// Renderers on several threads at once, as the parallel tests run them. Cairo keeps one cache of
    /// scaled fonts for the whole process, and cairo 1.16 breaks it when one thread lets a font go while
    /// another takes the same font up: the parallel render tests aborted about once in 200 runs
    /// (`cairo_scaled_font_destroy: Assertion '! scaled_font->cache_frozen' failed`), until renderers
    /// took turns for their text (`KeyboardRenderer.fonts`).
    @Suite struct ThreadedDrawingTests {
        @Test func renderersOnFourThreadsDrawTheSameLabelsAsOneAlone() throws {
            // Each keyboard and width draws its labels at sizes of their own, some in other scripts: fonts
            // made and let go all along, on every thread.
            let options = LayoutOptions(showsSuggestions: true)
            let geometries = try LabelFitTests.layouts.compactMap { bundled[$0] }.flatMap { layout in
                try [390, 1280].map { width in
                    try KeyboardLayoutEngine.layout(layout, layer: layout.defaultLayer, width: width, height: 300,
                                                    options: options)
                }
            }
            @Sendable func drawn(_ geometry: KeyboardGeometry) -> [String] {
                let labels = (try? KeyboardRenderer().labels(of: geometry)) ?? []
                return labels.map { "\($0.text) \($0.size) \($0.ink)" }
            }
            let alone = geometries.map(drawn)
            let differing = Atomic<Int>(0)
            let threads = (0..<4).compactMap { first in
                startThread {
                    for round in 0..<2 {
                        for step in geometries.indices {
                            let index = (step + first * 7 + round * 3) % geometries.count
                            if drawn(geometries[index]) != alone[index] { differing.add(1, ordering: .relaxed) }
                        }
                    }
                }
            }
            try #require(threads.count == 4, "four threads started")
            for thread in threads { pthread_join(thread, nil) }
            #expect(alone.allSatisfy { !$0.isEmpty })
            #expect(differing.load(ordering: .relaxed) == 0, "keyboards drawn differently on four threads at once")
        }
    }
}
