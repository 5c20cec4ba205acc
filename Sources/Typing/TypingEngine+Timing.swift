extension TypingEngine {
    /// Timings, in seconds.
    public struct Timing: Sendable {
        public var longPress = 0.45
        public var doubleTap = 0.35
        public var repeatDelay = 0.5
        public var repeatInterval = 0.1
        public var fastRepeatInterval = 0.05
        /// Repeats at the normal interval before speeding up.
        public var repeatsBeforeFast = 8
        /// Repeats by characters before a held delete takes whole words, and the interval between words.
        public var repeatsBeforeWords = 10
        public var wordRepeatInterval = 0.25
        /// Whether a held delete repeats.
        public var keyRepeat = true
        /// Slow keys: how long a key must be held before the press counts (0: at once). A shorter touch,
        /// a tremor's brush over the keys, types nothing.
        public var slowKeys = 0.0
        /// Bounce keys: a press of the key just typed, sooner than this after it was let go, is a bounce and
        /// types nothing (0: every press counts).
        public var bounceKeys = 0.0
        /// Dwell: a pointer that rests this long on a key presses it (0: off).
        public var dwell = 0.0
        /// How often the dwell's progress ring is drawn anew while it fills.
        public var dwellFrame = 1.0 / 30
        public init() {}
    }
}
