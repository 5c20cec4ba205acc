internal import Basics
internal import CX11
internal import KeyboardCore
internal import KeyboardModel
internal import Render
internal import Trace

/// The first frame: the picture kept from the start before when it is of the same frame (`FrameSnapshot`),
/// so that the keyboard is on screen before its fonts are set up; else drawn. The picture is then drawn
/// over for real once the fonts are there (the same pixels, unless the fonts changed meanwhile), and a new
/// picture is kept whenever the frame differs from the one kept.
final class FirstFrame {
    private unowned let keyboard: Keyboard
    private let display: X11Display
    private let options: KeyboardHost.Options
    /// Sets the fonts up, when start-up left that for once the first frame is out (`Options.startFonts`).
    private var fontsToStart: (@Sendable () -> Void)?
    private var painter: Painter { display.painter }
    private var window: KeyboardWindow { display.window }

    init(keyboard: Keyboard, display: X11Display, options: KeyboardHost.Options) {
        self.keyboard = keyboard
        self.display = display
        self.options = options
        fontsToStart = options.startFonts
    }

    /// Maps the window and shows the first frame. Returns the digest of the frame when it came from its
    /// picture, nil when it was drawn.
    func show() -> FrameDigest? {
        guard keyboard.showWindow() else { return nil }
        if fontsToStart != nil, let snapshot = options.frameSnapshot, keyboard.engine.state.popups.isEmpty && keyboard.engine.state.trail.isEmpty {
            let digest = digest(snapshot)
            if window.putSnapshot(at: snapshot.path, digest: digest) {
                display.flush()
                return digest
            }
        }
        // No picture of this frame: the fonts now, and the keys drawn.
        startFonts()
        drawAllInPlace()
        return nil
    }

    /// Sets the fonts up, if start-up left that for now.
    func startFonts() {
        guard let start = fontsToStart else { return }
        fontsToStart = nil
        start()
    }

    /// Draws the frame whose picture was shown, for real: the renderer's own drawing from then on.
    func drawAgain() {
        guard window.isMapped else { return }
        drawAllInPlace()
        Trace.step("first frame drawn over its picture")
    }

    /// Draws every key straight onto the window's buffer, keeping no image of each (the first frame's
    /// keys are drawn again only when they change), and shows it.
    private func drawAllInPlace() {
        painter.renderer.drawsInPlace = true
        display.drawAll(keyboard.engine)
        painter.renderer.drawsInPlace = false
        display.flush()
    }

    /// Writes the record of the labels' fonts for the next start, when this start had none to narrow to.
    func rememberFonts() {
        guard let path = options.fontRecord, !LabelFonts.isNarrow, !LabelFonts.recordHeld else { return }
        do {
            try painter.renderer.rememberFonts(at: path, labels: keyboard.engine.geometry.keys.flatMap { [$0.label, $0.secondary] }
                .compactMap { $0 })
        } catch {
            warn("\(error)")
        }
    }

    /// Keeps a picture of the first frame for the next start, unless the one kept is of this very frame.
    func keep(shown: FrameDigest?) {
        guard let snapshot = options.frameSnapshot, window.isMapped, keyboard.engine.state.popups.isEmpty && keyboard.engine.state.trail.isEmpty else { return }
        let digest = digest(snapshot)
        guard digest != shown else { return }
        do {
            try window.writeSnapshot(to: snapshot.path, digest: digest)
            Trace.step("first frame's picture kept")
        } catch {
            warn("\(error)")
        }
    }

    /// What the first frame is: what it draws, the program, and the fonts it draws with: their record,
    /// by its file's identity (a record made again is a new file, renamed over the old), so that nothing is
    /// read or allocated for it.
    private func digest(_ snapshot: FrameSnapshot) -> FrameDigest {
        let fonts = options.fontRecord.flatMap(LabelFonts.fileState(of:)) ?? ""
        return painter.renderer.frameDigest(of: keyboard.engine.geometry, state: keyboard.engine.state,
                                            handle: display.placement.handleRect, context: [snapshot.program, fonts])
    }
}
