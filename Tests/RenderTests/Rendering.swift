import Testing

/// The rendering suites, run one test at a time. Pango, cairo and fontconfig drawing on several threads at
/// once (each test with its own renderer, as `swift test` runs them in parallel) corrupted the heap now and
/// then: `free(): corrupted unsorted chunks`, in 2 of 5 runs of these suites alone, never in 10 serial
/// runs. Keypane itself draws on one thread.
@Suite(.serialized) enum Rendering {}
