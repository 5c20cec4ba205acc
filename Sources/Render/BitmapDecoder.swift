#if canImport(Glibc)
import Glibc
#endif
internal import CPangoFc
internal import Basics

/// Colour glyphs' bitmaps decoded on a thread of its own, ahead of the drawing that wants them.
///
/// An emoji's bitmap is a PNG in the font: decoding it (zlib, then libpng's filters) is most of the cost of
/// drawing an emoji key the first time. When a page of emoji is about to be drawn
/// ahead (the emoji keyboard's first page while the Globe key toward it is held, the pages next to the one
/// shown), the renderer names its glyphs here (`want`), and this thread decodes them, in that order, with
/// a FreeType face of its own (a face is not to be used by two threads), while the loop's thread draws.
/// Drawing a key takes its glyph's bitmap (`take`), decoded already, or being decoded (then it waits the
/// moment left), or not started (then the drawing decodes it itself, and this thread goes on with the
/// next). The two share one page's glyphs, on the two cores a machine like this has.
///
/// At most `readyLimit` bitmaps (some 70 KiB each) wait to be taken; those no longer wanted are let go
/// when the next page is named. Idle, the thread sleeps on a condition and wakes nothing.
final class BitmapDecoder: @unchecked Sendable {
    /// A glyph's bitmap as FreeType decodes it: premultiplied BGRA rows, `pitch` bytes apart; whoever
    /// takes it frees it.
    struct Bitmap {
        let pixels: UnsafeMutablePointer<UInt8>
        let width: Int
        let rows: Int
        let pitch: Int

        func free() { pixels.deallocate() }
    }

    /// The font file, its face and the strike (pixels per em) the bitmaps are decoded from: those of the
    /// face the drawing uses.
    let file: String
    let index: Int
    let strike: Int
    static let readyLimit = 12

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `lock`.
    private var queue: [UInt32] = []
    private var ready: [UInt32: Bitmap] = [:]
    private var decoding: UInt32?
    private var stopping = false
    private var broken = false
    private var thread: pthread_t?

    /// Starts the thread for the face `index` of `file`, decoding its bitmaps of `strike` pixels per em;
    /// nil when no thread can be made (the drawing then decodes every glyph itself, as without one).
    init?(file: String, index: Int, strike: Int) {
        self.file = file
        self.index = index
        self.strike = strike
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        // Unretained: deinit stops and joins the thread before the decoder goes.
        guard let thread = startThread({ [unowned(unsafe) self] in self.run() }) else {
            return nil   // deinit lets the lock and condition go, with no thread to stop
        }
        self.thread = thread
    }

    deinit {
        locked {
            stopping = true
            pthread_cond_broadcast(changed)
        }
        if let thread { pthread_join(thread, nil) }
        for bitmap in ready.values { bitmap.free() }
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    /// The glyphs about to be drawn, first first: decoded in that order from now, in place of those named
    /// before; bitmaps decoded and not among them are let go.
    func want(_ glyphs: [UInt32]) {
        locked {
            guard !broken else { return }
            let wanted = Set(glyphs)
            for (glyph, bitmap) in ready where !wanted.contains(glyph) {
                bitmap.free()
                ready[glyph] = nil
            }
            var seen = Set(ready.keys)
            if let decoding { seen.insert(decoding) }
            queue = glyphs.filter { seen.insert($0).inserted }
            pthread_cond_broadcast(changed)
        }
    }

    /// The glyph's bitmap, decoded here (waiting for it when the thread is decoding it now); nil when it
    /// was not decoded, and then it will not be: the caller decodes it.
    func take(_ glyph: UInt32) -> Bitmap? {
        locked {
            // The moment left of a decoding under way (0.1 ms at most) is waited out awake: asleep, the
            // wake-up alone took about as long.
            while decoding == glyph {
                pthread_mutex_unlock(lock)
                sched_yield()
                pthread_mutex_lock(lock)
            }
            if let bitmap = ready.removeValue(forKey: glyph) {
                pthread_cond_broadcast(changed)   // room for one more
                return bitmap
            }
            queue.removeAll { $0 == glyph }
            return nil
        }
    }

    /// How many bitmaps wait to be taken, and how many glyphs to be decoded (for tests).
    var pending: (ready: Int, queued: Int) {
        locked { (ready.count, queue.count + (decoding == nil ? 0 : 1)) }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// The thread: decodes the glyphs queued, one at a time, until stopped.
    private func run() {
        guard let own = ColourFace(file: file, index: index, strike: strike) else {
            // No face to decode with: every glyph is decoded by the drawing.
            locked {
                broken = true
                queue = []
            }
            return
        }
        pthread_mutex_lock(lock)
        while !stopping {
            guard !queue.isEmpty, ready.count < Self.readyLimit else {
                pthread_cond_wait(changed, lock)
                continue
            }
            let glyph = queue.removeFirst()
            decoding = glyph
            pthread_mutex_unlock(lock)
            let bitmap = Self.decode(glyph, face: own.face)
            pthread_mutex_lock(lock)
            decoding = nil
            if let bitmap { ready[glyph] = bitmap }
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(lock)
    }

    /// A glyph's colour bitmap, decoded into the face's slot: the pixels are the slot's, good until the
    /// face loads another glyph; nil when it has none.
    static func load(_ glyph: UInt32, face: FT_Face) -> Bitmap? {
        guard FT_Load_Glyph(face, glyph, loadColour) == 0, let slot = face.pointee.glyph,
              slot.pointee.bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
              let buffer = slot.pointee.bitmap.buffer, slot.pointee.bitmap.pitch > 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        return Bitmap(pixels: buffer, width: Int(bitmap.width), rows: Int(bitmap.rows), pitch: Int(bitmap.pitch))
    }

    /// A glyph's colour bitmap, decoded and copied out of the face's slot (the copy is the caller's to
    /// free); nil when it has none.
    static func decode(_ glyph: UInt32, face: FT_Face) -> Bitmap? {
        guard let loaded = load(glyph, face: face) else { return nil }
        let bytes = loaded.pitch * loaded.rows
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes)
        pixels.update(from: loaded.pixels, count: bytes)
        return Bitmap(pixels: pixels, width: loaded.width, rows: loaded.rows, pitch: loaded.pitch)
    }

    /// FT_LOAD_COLOR: a colour glyph's bitmap in its colours.
    private static let loadColour = Int32(1 << 20)
}

/// A colour font's face of a file, opened with a FreeType library of its own, at one strike: for one
/// thread's use. Cairo's face of the same file is shared by every font of the process, and
/// `cairo_ft_scaled_font_lock_face` does not keep it locked, so loading glyphs into it raced with any other
/// thread that drew (heap corruption in the render tests run in parallel).
final class ColourFace {
    let face: FT_Face
    private let library: FT_Library
    let file: String
    let index: Int
    let strike: Int

    init?(file: String, index: Int, strike: Int) {
        var library: FT_Library?
        var face: FT_Face?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        guard FT_New_Face(library, file, index, &face) == 0, let face, Self.selectStrike(strike, of: face) else {
            if let face { FT_Done_Face(face) }
            FT_Done_FreeType(library)
            return nil
        }
        self.library = library
        self.face = face
        self.file = file
        self.index = index
        self.strike = strike
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Selects the strike of `strike` pixels per em, as the drawing's face has it.
    private static func selectStrike(_ strike: Int, of face: FT_Face) -> Bool {
        guard let sizes = face.pointee.available_sizes else { return false }
        for index in 0..<Int(face.pointee.num_fixed_sizes) where (Int(sizes[index].y_ppem) + 32) >> 6 == strike {
            return FT_Select_Size(face, Int32(index)) == 0
        }
        return false
    }
}
