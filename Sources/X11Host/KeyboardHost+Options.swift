public import KeyboardModel
public import Typing

/// What the keyboard host is told at start: where it docks and how tall it is, what it remembers and
/// where, and what it reads once the first frame is out.
extension KeyboardHost {
    public struct Options: Sendable {
        /// The monitor to dock on, by RandR name; nil for the primary.
        public var monitor: String?
        /// A fixed height in pixels, or nil for the policy in `DockPlacement.height`.
        public var height: Int?
        /// A height as a share of the monitor's height (0...1), used when `height` is nil.
        public var heightFraction: Double?
        /// Start undocked: a floating keyboard the user drags by its handle.
        public var floating: Bool
        /// Where the floating keyboard's position is kept between runs; nil keeps nothing.
        public var positionFile: PositionFile?
        /// Show, hide and choose the keyboard as the focused field asks, through the accessibility bus: for
        /// fields focused by touch, for any focused field, or never; nil: by touch when the session has a
        /// touchscreen, else for any.
        public var autoShow: AutoShow?
        /// After the user dismissed the keyboard, a round button at the screen's edge brings it back.
        public var showButton: Bool
        /// The switches of switch scanning (the engine's `scanning` says whether it is on and how).
        public var scanSwitches: [String] = []
        /// How large labels are drawn, against their usual size (`--label-size`).
        public var labelScale = 1.0
        /// The dictionary and the learned words, for suggestions (the engine's `suggestionsEnabled` says
        /// whether they are on).
        public var suggestionFiles: SuggestionWorker.Files?
        /// Reads layouts the library the engine starts with (those it shows) lacks: given none, once the
        /// first frame is out, the user's own (a mistake in one is said at start); later, those named (a
        /// field's keyboard type, a language asked for). Nil when there are none or they cannot be read,
        /// which leaves the engine's as it is.
        public var restOfLibrary: (@Sendable (Set<String>) -> LayoutLibrary?)?
        /// Where the labels' font is remembered for the next start (`LabelFonts`); nil to keep no record.
        public var fontRecord: String?
        /// The picture of the last start's first frame, shown in place of drawing the same frame again
        /// (`FrameSnapshot`); nil to keep none.
        public var frameSnapshot: FrameSnapshot?
        /// Sets the labels' fonts up, when start-up left that for once the first frame is out (it had a
        /// picture of it to show): the host calls it then, or before drawing a frame the picture is not of.
        public var startFonts: (@Sendable () -> Void)?
        /// Where the language keyboard last chosen with the Globe key is kept for the next start.
        public var languageFile: StateFile?
        /// Reads the emoji for the emoji keyboard (once the first frame is out): all of them, or with
        /// `firstPageOnly` only what its first page shows (`EmojiCatalog.firstPage`, errors unsaid: the whole
        /// reading says them); nil: no emoji keyboard, or it is in the engine's library already.
        public var emojiCatalog: (@Sendable (_ firstPageOnly: Bool) -> EmojiCatalog?)?
        /// Where the recent emoji and the skin tones chosen are kept.
        public var emojiFile: StateFile?
        public init(monitor: String? = nil, height: Int? = nil, heightFraction: Double? = nil, floating: Bool = false,
                    autoShow: AutoShow? = .never, showButton: Bool = true, positionFile: PositionFile? = nil) {
            self.showButton = showButton
            self.monitor = monitor
            self.height = height
            self.heightFraction = heightFraction
            self.floating = floating
            self.autoShow = autoShow
            self.positionFile = positionFile
        }
    }
}
