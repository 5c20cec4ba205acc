public import KeyboardCore
public import KeyboardModel
public import Typing

/// What the keyboard host is told at start: where it docks and how tall it is, its first frame and fonts,
/// and what the keyboard's behaviour is told.
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
        /// The switches of switch scanning (the engine's `scanning` says whether it is on and how).
        public var scanSwitches: [String] = []
        /// How large labels are drawn, against their usual size (`--label-size`).
        public var labelScale = 1.0
        /// The theme follows the desktop's: dark while its GTK theme is a dark one (`--theme desktop`).
        public var themeFollowsDesktop = false
        /// Where the labels' font is remembered for the next start (`LabelFonts`); nil to keep no record.
        public var fontRecord: String?
        /// The picture of the last start's first frame, shown in place of drawing the same frame again
        /// (`FrameSnapshot`); nil to keep none.
        public var frameSnapshot: FrameSnapshot?
        /// Sets the labels' fonts up, when start-up left that for once the first frame is out (it had a
        /// picture of it to show): the host calls it then, or before drawing a frame the picture is not of.
        public var startFonts: (@Sendable () -> Void)?
        /// What the keyboard's behaviour is told: when it shows, what it remembers, what it reads later.
        public var keyboard: Keyboard.Configuration
        public init(monitor: String? = nil, height: Int? = nil, heightFraction: Double? = nil, floating: Bool = false,
                    autoShow: AutoShow? = .never, showButton: Bool = true, positionFile: PositionFile? = nil) {
            self.monitor = monitor
            self.height = height
            self.heightFraction = heightFraction
            self.floating = floating
            self.positionFile = positionFile
            keyboard = Keyboard.Configuration(autoShow: autoShow, showButton: showButton)
        }
    }
}
