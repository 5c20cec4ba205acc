public import KeyboardModel
internal import Basics
internal import EventLoop
internal import Typing

/// The settings panel's changes, applied to the running keyboard at once (SettingsController writes
/// them to the settings file).
extension Keyboard {
    /// The keyboard's own engine: under the settings panel while it is open.
    var keyboardEngine: TypingEngine { settings.keyboardEngine ?? engine }

    /// Changes the keyboard's own engine where it is (under the settings panel while it is open), in
    /// place: a copy changed and put back would copy its layouts and geometry at every field focused.
    @discardableResult
    func changeKeyboardEngine<T>(_ change: (inout TypingEngine) throws -> T) rethrows -> T {
        if settings.keyboardEngine != nil { return try change(&settings.keyboardEngine!) }
        return try change(&engine)
    }

    /// A setting takes a value (nil: its default), as the settings file writes it. Settings read only at
    /// start (switch scanning, which fields show the keyboard) wait for the next.
    func applySetting(_ name: String, _ value: String?) {
        let on = value.map { $0 == "on" }
        switch name {
        case "theme": _ = display.changeLook(theme: value ?? "light", labelScale: nil)
        case "label-size": _ = display.changeLook(theme: nil, labelScale: (value.flatMap(Double.init) ?? 100) / 100)
        case "floating":
            if (on ?? false) != display.isFloating {
                display.toggleFloating()
                place()
            }
        case "sound": setSound(on: on ?? true, volume: soundVolume)
        case "volume": setSound(on: soundOn, volume: (value.flatMap(Double.init) ?? 100) / 100)
        case "height":
            let percent = value.flatMap { $0.hasSuffix("%") ? Double($0.dropLast()) : nil }
            display.changeHeight(pixels: percent == nil ? value.flatMap { Int($0) } : nil, fraction: percent.map { $0 / 100 })
            place()
        case "auto-show":
            let mode = value.flatMap(AutoShow.init(rawValue:))
            configuration.autoShow = mode
            if let fields {
                fields.show(on: mode)
            } else if mode != .never, let fields = followFocus() {
                followerStarted?(fields)
            }
        case "show-button": showButton = on ?? true
        case "learning": suggestions.learning = on ?? true
        default: applyToEngine(name, value)
        }
        display.noteAllChanged()
    }

    /// A setting of typing: the keyboard's engine's, and the timing of the panel's too.
    private func applyToEngine(_ name: String, _ value: String?) {
        let on = value.map { $0 == "on" }
        let seconds = value.flatMap(Double.init)
        let (timing, scanning) = changeKeyboardEngine { engine in
            var traits = engine.traitOverrides
            switch name {
            case "autocorrection": engine.autocorrectionEnabled = on ?? true
            case "suggestions": engine.suggestionsEnabled = on ?? true
            case "slide-to-type": engine.slideToTypeEnabled = on ?? true
            case "double-space-period": engine.doubleSpacePeriod = on ?? true
            case "caps-lock": engine.capsLockEnabled = on ?? true
            case "sticky-keys": engine.stickyModifiers = on ?? true
            case "smart-quotes": traits.smartQuotes = on
            case "smart-dashes": traits.smartDashes = on
            case "autocapitalization": traits.autocapitalization = value.flatMap(TextTraits.Autocapitalization.init(rawValue:))
            case "key-repeat": engine.timing.keyRepeat = on ?? true
            case "long-press": engine.timing.longPress = seconds ?? TypingEngine.Timing().longPress
            case "slow-keys": engine.timing.slowKeys = seconds ?? 0
            case "bounce-keys": engine.timing.bounceKeys = seconds ?? 0
            case "dwell":
                engine.timing.dwell = seconds ?? 0
                if engine.timing.dwell > 0 { display.watchHover() }
            case "scan-interval": engine.scanning?.interval = seconds ?? ScanSettings(mode: .auto).interval
            case "scan-switch":
                if let mode = engine.scanning?.mode { engine.scanning = scanSettings(mode, interval: engine.scanning?.interval) }
            case "scan": engine.scanning = scanSettings(value.flatMap(ScanSettings.Mode.init(rawValue:)), interval: engine.scanning?.interval)
            default: break
            }
            if traits != engine.traitOverrides { engine.setTraitOverrides(traits) }
            return (engine.timing, engine.scanning)
        }
        // The panel on screen is scanned and dwelt on as the keyboard will be.
        if settings.isOpen {
            engine.timing = timing
            if engine.scanning != scanning {
                _ = engine.stopScanning()
                engine.scanning = scanning
                _ = engine.startScanning(at: EventLoop.monotonicNow())
            }
        }
        // Suggestions off at start have no worker yet: it starts now.
        if name == "suggestions", keyboardEngine.suggestionsEnabled { suggestions.start() }
    }

    /// The Globe key's list becomes `names`, in that order: the layouts not read yet are read, the emoji
    /// keyboard joins with its emoji read when wanted. False, and nothing changes, when a keyboard cannot
    /// be had or the list would hold no keyboard but emoji.
    func setGlobeList(_ names: [String]) -> Bool {
        guard names.contains(where: { $0 != EmojiBoard.name }) else { return false }
        for name in names where name != EmojiBoard.name && keyboardEngine.library[name] == nil {
            guard readLayout(name) else { return false }
        }
        if names.contains(EmojiBoard.name), keyboardEngine.emoji == nil {
            guard emoji.joinWhenWanted() else { return false }
        }
        changeKeyboardEngine { $0.setKeyboards(names) }
        display.noteAllChanged()
        return true
    }
}

extension Keyboard {
    /// Switch scanning in a mode, its switches taken (those the settings name, else F12, or F11 and F12
    /// for step scanning), or off and its switches let go; nil when off or the switches cannot be had.
    func scanSettings(_ mode: ScanSettings.Mode?, interval: Double?) -> ScanSettings? {
        guard let mode else {
            _ = display.takeScanSwitches([])
            return nil
        }
        let named = settings.value(of: "scan-switch")
        let names = (named ?? (mode == .step ? "F11,F12" : "F12")).split(separator: ",").map {
            String($0.filter { $0 != " " })
        }
        if let problem = display.takeScanSwitches(names) {
            warn("\(problem); switch scanning is off")
            return nil
        }
        var settings = ScanSettings(mode: mode)
        if let interval { settings.interval = interval }
        return settings
    }

    /// The input click on or off, at a volume: made again at another volume, let go when off.
    func setSound(on: Bool, volume: Double) {
        let made = sound != nil && volume == soundVolume
        soundOn = on
        soundVolume = volume
        guard on, volume > 0 else {
            sound = nil
            return
        }
        guard !made, let make = configuration.settingsPanel?.makeSound else { return }
        sound = make(volume)
        sound?.start()
    }
}
