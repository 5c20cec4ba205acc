internal import CCanberra
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

    /// Starts the sound thread. `report` is told, from that thread, what goes wrong (and right again).
    public init(settings: Settings, report: @escaping @Sendable (String) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            report("no input click: cannot make a pipe: \(String(cString: strerror(errno)))")
            writeEnd = -1
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe drops the click rather than blocking the keyboard.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        writeEnd = ends[1]
        let player = Unmanaged.passRetained(Player(settings: settings, readEnd: ends[0], report: report))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let player = Unmanaged<Player>.fromOpaque(context!).takeRetainedValue()
            player.run()
            return nil
        }, player.toOpaque())
        if started != 0 {
            player.release()
            report("no input click: cannot start its thread")
        } else {
            pthread_detach(thread)
        }
    }

    deinit {
        // The thread sees the end of the pipe, lets go of the sound server and ends.
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Sounds a click for a key pressed at `time` (CLOCK_MONOTONIC seconds). Returns at once.
    public func play(_ click: Click, at time: Double = InputClick.now()) {
        var message = Message(click: UInt64(Click.allCases.firstIndex(of: click)!), time: time)
        _ = withUnsafeBytes(of: &message) { write(writeEnd, $0.baseAddress, $0.count) }
    }

    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
    /// The open context, or nil when there is no sound now.
    var context: OpaquePointer?
    /// What to play for each click, made once: event id, file, volume, cache control.
    var properties: [Click: OpaquePointer] = [:]
    /// Whether the last attempt to sound failed, and was said: said once, until sound works again.
    var silent = false
    /// When to try opening the audio connection again, after a failure.
    var retryAt = 0.0
    static let retryInterval = 5.0

    init(settings: InputClick.Settings, readEnd: Int32, report: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.readEnd = readEnd
        self.report = report
    }

    func run() {
        // Signals are the main thread's business.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        makeProperties()
        open()
        var messages = [InputClick.Message](repeating: .init(click: 0, time: 0), count: 64)
        while true {
            let count = messages.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            // Whole messages only: each was written at once, and the buffer holds a whole number of them.
            let newest = messages[count / MemoryLayout<InputClick.Message>.stride - 1]
            guard InputClick.now() - newest.time <= InputClick.stale else { continue }
            play(Click.allCases[Int(newest.click)])
        }
        disconnect()
        close(readEnd)
        for list in properties.values { ca_proplist_destroy(list) }
    }

    private func makeProperties() {
        let volume = 20 * log10(max(settings.volume, 0.0001))
        for (click, path) in settings.sounds {
            var list: OpaquePointer?
            guard ca_proplist_create(&list) == Int32(CA_SUCCESS), let list else { continue }
            // The event id names the sample in the sound server's cache.
            ca_proplist_sets(list, CA_PROP_EVENT_ID, "keypane-\(click.rawValue)-click")
            ca_proplist_sets(list, CA_PROP_EVENT_DESCRIPTION, "Key pressed")
            ca_proplist_sets(list, CA_PROP_MEDIA_FILENAME, path)
            ca_proplist_sets(list, CA_PROP_MEDIA_ROLE, "event")
            ca_proplist_sets(list, CA_PROP_CANBERRA_CACHE_CONTROL, "permanent")
            ca_proplist_sets(list, CA_PROP_CANBERRA_VOLUME, String(volume))
            properties[click] = list
        }
    }

    /// Opens the connection to the sound server or device and caches the samples there.
    private func open() {
        var created: OpaquePointer?
        guard ca_context_create(&created) == Int32(CA_SUCCESS), let created else { return failed("cannot start libcanberra") }
        var application: OpaquePointer?
        if ca_proplist_create(&application) == Int32(CA_SUCCESS), let application {
            ca_proplist_sets(application, CA_PROP_APPLICATION_NAME, "Keypane")
            ca_proplist_sets(application, CA_PROP_APPLICATION_ID, "keypane")
            ca_context_change_props_full(created, application)
            ca_proplist_destroy(application)
        }
        if let driver = settings.driver { ca_context_set_driver(created, driver) }
        let status = ca_context_open(created)
        guard status == Int32(CA_SUCCESS) else {
            ca_context_destroy(created)
            return failed("cannot open a sound device (\(Self.describe(status)))")
        }
        context = created
        for click in Click.allCases {
            guard let list = properties[click] else { continue }
            // ALSA has no sample cache; a sound server that has one keeps the sample from now on.
            let cached = ca_context_cache_full(created, list)
            if cached != Int32(CA_SUCCESS) && cached != Int32(CA_ERROR_NOTSUPPORTED) {
                return failed("cannot load \(settings.sounds[click] ?? click.rawValue) (\(Self.describe(cached)))")
            }
        }
    }

    private func play(_ click: Click) {
        if context == nil {
            guard InputClick.now() >= retryAt else { return }
            open()
        }
        guard let context, let list = properties[click] else { return }
        let status = ca_context_play_full(context, 1, list, nil, nil)
        if status == Int32(CA_SUCCESS) {
            if silent { report("the input click is back") }
            silent = false
        } else {
            failed("cannot play the input click (\(Self.describe(status)))")
        }
    }

    /// No sound for now: say so once, let go of the context, and try again later.
    private func failed(_ why: String) {
        if !silent { report("\(why); typing goes on without the input click") }
        silent = true
        disconnect()
        retryAt = InputClick.now() + Self.retryInterval
    }

    private func disconnect() {
        if let context { ca_context_destroy(context) }
        context = nil
    }

    static func describe(_ status: Int32) -> String {
        guard let text = ca_strerror(status) else { return "error \(status)" }
        return String(cString: text).lowercased()
    }
}
