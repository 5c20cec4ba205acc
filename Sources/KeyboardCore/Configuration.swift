public import Basics
public import KeyboardModel
public import Typing

extension Keyboard {
    /// What the keyboard's behaviour is told at start: when it shows, what it remembers and where, and what
    /// it reads once the first frame is out.
    public struct Configuration: Sendable {
        /// Show, hide and choose the keyboard as the focused field asks, through the accessibility bus: for
        /// fields focused by touch, for any focused field, or never; nil: by touch when the session has a
        /// touchscreen, else for any.
        public var autoShow: AutoShow?
        /// After the user dismissed the keyboard, a round button at the screen's edge brings it back.
        public var showButton: Bool
        /// The dictionary and the learned words, for suggestions (the engine's `suggestionsEnabled` says
        /// whether they are on).
        public var suggestionFiles: SuggestionWorker.Files?
        /// Reads layouts the library the engine starts with (those it shows) lacks: given none, once the
        /// first frame is out, the user's own (a mistake in one is said at start); later, those named (a
        /// field's keyboard type, a language asked for). Nil when there are none or they cannot be read,
        /// which leaves the engine's as it is.
        public var restOfLibrary: (@Sendable (Set<String>) -> LayoutLibrary?)?
        /// Where the language keyboard last chosen with the Globe key is kept for the next start.
        public var languageFile: StateFile?
        /// Reads the emoji for the emoji keyboard (once the first frame is out): all of them, or with
        /// `firstPageOnly` only what its first page shows (`EmojiCatalog.firstPage`, errors unsaid: the whole
        /// reading says them); nil: no emoji keyboard, or it is in the engine's library already.
        public var emojiCatalog: (@Sendable (_ firstPageOnly: Bool) -> EmojiCatalog?)?
        /// The emoji keyboard is in the Globe key's cycle from the start (else `emojiCatalog` waits for the
        /// settings panel to turn it on).
        public var emojiInCycle = true
        /// Where the recent emoji and the skin tones chosen are kept.
        public var emojiFile: StateFile?
        /// Where the text replacements are kept (`keypane replace`).
        public var replacementsFile: StateFile?
        /// Words typed are learned (`--learning`); off, nothing is learned or kept.
        public var learning = true
        /// What the settings panel shows and changes; nil when the administrator locked it away.
        public var settingsPanel: SettingsSetup?

        public init(autoShow: AutoShow? = .never, showButton: Bool = true) {
            self.autoShow = autoShow
            self.showButton = showButton
        }
    }
}
