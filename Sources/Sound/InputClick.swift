public import EventLoop
internal import Basics
internal import CCanberra
internal import Synchronization
public import Typing

#if canImport(Glibc)
import Glibc
#endif

/// The input click: a soft sound as each key goes down, played through libcanberra (PulseAudio, PipeWire
/// through its PulseAudio server, or ALSA).
///
/// Sound never stands in the way of typing. `play` writes one small message to a pipe and returns; a
/// thread of its own opens the audio connection, caches the three samples in the sound server, and plays
/// them. That thread plays only the newest click it finds waiting, and none that waited longer than
/// `InputClick.stale`, so fast taps never queue up clicks to be played late. When there is no audio
/// device, or the sound server goes away, the keyboard says so once and goes on silently, trying again
/// now and then as keys are pressed.
public final class InputClick: Sendable {
    public struct Settings: Sendable {
        /// The sound file of each click.
        public var sounds: [Click: String]
        /// Loudness, as a share of full volume (0 < volume <= 1).
        public var volume: Double
        /// A libcanberra driver ("pulse", "alsa"); nil lets libcanberra choose.
        public var driver: String?

        public init(sounds: [Click: String], volume: Double = 1, driver: String? = nil) {
            self.sounds = sounds
            self.volume = volume
            self.driver = driver
        }
    }

    /// A click older than this when the sound thread reaches it is not played: it would be heard late.
    public static let stale = 0.1

    private let writeEnd: Int32
    private let readEnd: Int32
    private let player: Player?
    private let started = Atomic<Bool>(false)
    /// Until when the sound thread wants no clicks (it found no sound and tries again only then): a
    /// keyboard with no sound device does not wake that thread at every key.
    private let quiet = QuietTime()

    /// Makes the pipe the clicks go through; `start()` starts the thread that plays them. `report` is
    /// told, from that thread, what goes wrong (and right again).
    public init(settings: Settings, report: @escaping @Sendable (String) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            report("no input click: cannot make a pipe: \(String(cString: strerror(errno)))")
            writeEnd = -1
            readEnd = -1
            player = nil
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe drops the click rather than blocking the keyboard.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        writeEnd = ends[1]
        readEnd = ends[0]
        player = Player(settings: settings, readEnd: ends[0], quiet: quiet, report: report)
    }

    /// Starts the sound thread, which loads libcanberra and opens the sound server: called once the first
    /// frame is on screen, so that none of it delays the keyboard's start. Clicks before it are not heard.
    public func start() {
        guard let player, started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        guard let thread = startThread({ player.run() }) else {
            return player.report("no input click: cannot start its thread")
        }
        pthread_detach(thread)
    }

    deinit {
        // The thread sees the end of the pipe, lets go of the sound server and ends.
        if writeEnd >= 0 { close(writeEnd) }
        if !started.load(ordering: .relaxed), readEnd >= 0 { close(readEnd) }
    }

    /// Sounds a click for a key pressed at `time` (CLOCK_MONOTONIC seconds). Returns at once.
    public func play(_ click: Click, at time: Double = EventLoop.monotonicNow()) {
        guard time >= quiet.until else { return }
        var message = Message(click: UInt64(Click.allCases.firstIndex(of: click)!), time: time)
        _ = withUnsafeBytes(of: &message) { write(writeEnd, $0.baseAddress, $0.count) }
    }


    /// One click on the pipe: small enough that a write of it is atomic.
    struct Message {
        var click: UInt64
        var time: Double
    }
}

/// The sound thread's side: the libcanberra context and the cached samples.
private final class Player: @unchecked Sendable {
    let settings: InputClick.Settings
    let readEnd: Int32
    let report: @Sendable (String) -> Void
    /// libcanberra's functions, once loaded.
    var canberra = keypane_canberra()
    /// The open context, or nil when there is no sound now.
    var context: OpaquePointer?
    /// What to play for each click, made once: event id, file, volume, cache control.
    var properties: [Click: OpaquePointer] = [:]
    /// Whether the last attempt to sound failed, and was said: said once, until sound works again.
    var silent = false
    /// When to try opening the audio connection again, after a failure; clicks before then are not sent.
    let quiet: QuietTime
    var retryAt: Double {
        get { quiet.until }
        set { quiet.until = newValue }
    }
    static let retryInterval = 5.0

    init(settings: InputClick.Settings, readEnd: Int32, quiet: QuietTime, report: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.readEnd = readEnd
        self.quiet = quiet
        self.report = report
    }

    func run() {
        open()
        var messages = [InputClick.Message](repeating: .init(click: 0, time: 0), count: 64)
        while true {
            let count = messages.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            // Whole messages only: each was written at once, and the buffer holds a whole number of them.
            let newest = messages[count / MemoryLayout<InputClick.Message>.stride - 1]
            guard EventLoop.monotonicNow() - newest.time <= InputClick.stale else { continue }
            play(Click.allCases[Int(newest.click)])
        }
        disconnect()
        close(readEnd)
        for list in properties.values { _ = canberra.proplist_destroy?(list) }
    }

    private func makeProperties() {
        let volume = 20 * log10(max(settings.volume, 0.0001))
        for (click, path) in settings.sounds {
            var list: OpaquePointer?
            guard canberra.proplist_create!(&list) == Int32(CA_SUCCESS), let list else { continue }
            // The event id names the sample in the sound server's cache.
            _ = canberra.proplist_sets!(list, CA_PROP_EVENT_ID, "keypane-\(click.rawValue)-click")
            _ = canberra.proplist_sets!(list, CA_PROP_EVENT_DESCRIPTION, "Key pressed")
            _ = canberra.proplist_sets!(list, CA_PROP_MEDIA_FILENAME, path)
            _ = canberra.proplist_sets!(list, CA_PROP_MEDIA_ROLE, "event")
            _ = canberra.proplist_sets!(list, CA_PROP_CANBERRA_CACHE_CONTROL, "permanent")
            _ = canberra.proplist_sets!(list, CA_PROP_CANBERRA_VOLUME, String(volume))
            properties[click] = list
        }
    }

    /// Loads libcanberra, once: false when it cannot be (said, and then the clicks are read and dropped
    /// for good: the keyboard's writes never block).
    private func load() -> Bool {
        if canberra.context_create != nil { return true }
        var error: UnsafePointer<CChar>?
        guard let loaded = keypane_canberra_load(&error) else {
            report("cannot load libcanberra (\(error.map { String(cString: $0) } ?? "not found")); typing goes on without the input click")
            silent = true
            retryAt = .infinity
            return false
        }
        canberra = loaded.pointee
        makeProperties()
        return true
    }

    /// Opens the connection to the sound server or device and caches the samples there. With no sound
    /// server or card to be found, libcanberra is not loaded yet: it and the PulseAudio libraries it
    /// brings are 1.9 MiB that stay for good once loaded (libpulse cannot be unloaded).
    private func open() {
        guard settings.driver != nil || SoundDevices.mayAnswer() else {
            return failed("cannot open a sound device (no sound server or sound card found)")
        }
        guard load() else { return }
        var created: OpaquePointer?
        guard canberra.context_create!(&created) == Int32(CA_SUCCESS), let created else { return failed("cannot start libcanberra") }
        var application: OpaquePointer?
        if canberra.proplist_create!(&application) == Int32(CA_SUCCESS), let application {
            _ = canberra.proplist_sets!(application, CA_PROP_APPLICATION_NAME, "Keypane")
            _ = canberra.proplist_sets!(application, CA_PROP_APPLICATION_ID, "keypane")
            _ = canberra.context_change_props_full!(created, application)
            _ = canberra.proplist_destroy!(application)
        }
        if let driver = settings.driver { _ = canberra.context_set_driver!(created, driver) }
        let status = canberra.context_open!(created)
        guard status == Int32(CA_SUCCESS) else {
            _ = canberra.context_destroy!(created)
            return failed("cannot open a sound device (\(describe(status)))")
        }
        context = created
        for click in Click.allCases {
            guard let list = properties[click] else { continue }
            // ALSA has no sample cache; a sound server that has one keeps the sample from now on.
            let cached = canberra.context_cache_full!(created, list)
            if cached != Int32(CA_SUCCESS) && cached != Int32(CA_ERROR_NOTSUPPORTED) {
                return failed("cannot load \(settings.sounds[click] ?? click.rawValue) (\(describe(cached)))")
            }
        }
    }

    private func play(_ click: Click) {
        if context == nil {
            guard EventLoop.monotonicNow() >= retryAt else { return }
            open()
        }
        guard let context, let list = properties[click] else { return }
        let status = canberra.context_play_full!(context, 1, list, nil, nil)
        if status == Int32(CA_SUCCESS) {
            if silent { report("the input click is back") }
            silent = false
        } else {
            failed("cannot play the input click (\(describe(status)))")
        }
    }

    /// No sound for now: say so once, let go of the context, and try again later.
    private func failed(_ why: String) {
        if !silent { report("\(why); typing goes on without the input click") }
        silent = true
        disconnect()
        retryAt = EventLoop.monotonicNow() + Self.retryInterval
    }

    private func disconnect() {
        if let context { _ = canberra.context_destroy!(context) }
        context = nil
    }

    func describe(_ status: Int32) -> String {
        guard let text = canberra.strerror!(status) else { return "error \(status)" }
        return String(cString: text).lowercased()
    }
}

/// A time both threads read: the sound thread sets it, `play` reads it.
final class QuietTime: Sendable {
    private let bits = Atomic<UInt64>(0)

    var until: Double {
        get { Double(bitPattern: bits.load(ordering: .relaxed)) }
        set { bits.store(newValue.bitPattern, ordering: .relaxed) }
    }
}
