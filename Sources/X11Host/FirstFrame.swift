internal import Basics
internal import CX11
internal import KeyboardModel
internal import Render
internal import Trace

#if canImport(Glibc)
import Glibc
#endif

/// The first frame: the picture kept from the start before when it is of the same frame (`FrameSnapshot`),
/// so that the keyboard is on screen before its fonts are set up; else drawn. The picture is then drawn
/// over for real once the fonts are there (the same pixels, unless the fonts changed meanwhile), and a new
/// picture is kept whenever the frame differs from the one kept.
extension KeyboardHost {
    /// Maps the window and shows the first frame. Returns the digest of the frame when it came from its
    /// picture, nil when it was drawn.
    func showFirstFrame() -> FrameDigest? {
        guard mapWindow() else { return nil }
        if fontsToStart != nil, let snapshot = options.frameSnapshot, engine.state.popups.isEmpty {
            let digest = firstFrameDigest(snapshot)
            if window.putSnapshot(at: snapshot.path, digest: digest) {
                XFlush(display)
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
    func drawFirstFrameAgain() {
        guard window.isMapped else { return }
        drawAllInPlace()
        Trace.step("first frame drawn over its picture")
    }

    /// Draws every key straight onto the window's buffer, keeping no image of each (the first frame's
    /// keys are drawn again only when they change), and shows it.
    private func drawAllInPlace() {
        painter.renderer.drawsInPlace = true
        painter.redrawAll(engine, handle: placement.handleRect)
        painter.renderer.drawsInPlace = false
        XFlush(display)
    }

    /// Keeps a picture of the first frame for the next start, unless the one kept is of this very frame.
    func keepFirstFrame(shown: FrameDigest?) {
        guard let snapshot = options.frameSnapshot, window.isMapped, engine.state.popups.isEmpty else { return }
        let digest = firstFrameDigest(snapshot)
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
    private func firstFrameDigest(_ snapshot: FrameSnapshot) -> FrameDigest {
        let fonts = options.fontRecord.flatMap(LabelFonts.fileState(of:)) ?? ""
        return painter.renderer.frameDigest(of: engine.geometry, state: engine.state, handle: placement.handleRect,
                                            context: [snapshot.program, fonts])
    }
}
