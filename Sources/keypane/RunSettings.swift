internal import Basics
import KeyboardModel
import Render
import Typing

/// What `keypane run` was told, typed: every option of the command line and the settings file is read and
/// checked here, once. A bad value from the command line ends the program with one line; from the settings
/// file, it is said with the file and line and the default holds.
struct RunSettings {
    var display: String?
    /// The layouts folder that replaces the installed one and the user's (`--layouts`).
    var layouts: String?
    /// The keyboard shown first, as named; checked against the layouts once they are read.
    var type: String?
    /// The enabled keyboards in Globe order, as named; nil when the languages decide.
    var keyboards: [String]?
    /// The languages to type in, normalized tags; nil when the keymap and the locale decide.
    var languages: [String]?
    var emoji = true
    var returnKey = ReturnKeyType.default
    var theme = Theme.light
    /// The theme follows the desktop's (`--theme desktop`): dark while its GTK theme is a dark one.
    var themeFollowsDesktop = false
    /// The labels' size, as a scale of their usual size.
    var labelScale = 1.0
    enum Height: Equatable { case pixels(Int), fraction(Double) }
    var height: Height?
    var monitor: String?
    var floating = false
    /// When the keyboard follows the focus; nil when the session's devices decide.
    var autoShow: AutoShow?
    var showButton = true
    var traits = TextTraits.Overrides()
    var suggestions = true
    var slideToType = true
    var doubleSpacePeriod = true
    var capsLock = true
    var stickyKeys = true
    /// Words typed are learned.
    var learning = true
    /// A dictionary in place of a language's own.
    var dictionary: (language: String, path: String)?
    var timing = TypingEngine.Timing()
    /// Switch scanning, or nil when it is off.
    var scanning: ScanSettings?
    /// The scanning switches, as named (F12, button:3).
    var scanSwitches: [String] = []
    var sound = true
    /// The input click's volume, 0 to 1.
    var volume = 1.0

    /// Where each setting came from, to say a problem found later (a keyboard no layout has).
    private let options: ParsedOptions

    init(_ options: ParsedOptions) {
        self.options = options
        display = options["display"]
        layouts = options["layouts"]
        monitor = options["monitor"]
        type = options["type"]
        keyboards = options["keyboards"].map(Self.listed)
        languages = options.value("languages", { list -> [String]? in
            let tags = Self.listed(list).map(Language.normalized)
            return tags.isEmpty || tags.contains(nil) ? nil : tags.compactMap { $0 }
        }, problem: { list, option in
            let bad = Self.listed(list).first { Language.normalized($0) == nil }
            return "bad language '\(bad ?? list)' in \(option): expected language tags such as de, fr, ru or en-GB"
        })
        emoji = options.flag("emoji", default: true)
        returnKey = options.value("return-key", ReturnKeyType.init(rawValue:), problem: { value, _ in
            "unknown return key '\(value)': expected one of \(ReturnKeyType.allNames)"
        }) ?? .default
        themeFollowsDesktop = options["theme"] == "desktop"
        theme = options.value("theme", { $0 == "desktop" ? .light : Theme.named($0) }, problem: { value, _ in
            "unknown theme '\(value)': expected one of \(Theme.allNames) or desktop"
        }) ?? .light
        labelScale = options.labelScale
        height = options.value("height", { text -> Height? in
            if text.hasSuffix("%"), let percent = Double(text.dropLast()), percent > 0, percent <= 100 {
                return .fraction(percent / 100)
            }
            return Int(text).flatMap { $0 > 0 ? .pixels($0) : nil }
        }, problem: { "bad \($1) '\($0)': expected pixels (300) or a percentage (35%)" })
        floating = options.flag("floating", default: false)
        autoShow = options.value("auto-show", { text -> AutoShow?? in
            if let mode = AutoShow(rawValue: text) { return .some(mode) }
            switch Configuration.boolean(text) {
            case true?: return .some(nil) // the settings file's old yes: as the devices decide
            case false?: return .some(.never)
            case nil: return nil
            }
        }, problem: { "unknown \($1) '\($0)': expected touch, focus or never" }) ?? nil
        showButton = options.flag("show-button", default: true)

        traits = TextTraits.Overrides(autocorrection: options.flags["autocorrection"],
                                      smartQuotes: options.flags["smart-quotes"],
                                      smartDashes: options.flags["smart-dashes"], secureEntry: options.flags["secure"])
        traits.autocapitalization = options.value("autocapitalization", TextTraits.Autocapitalization.init(rawValue:),
            problem: { value, _ in "unknown autocapitalization '\(value)': expected none, words, sentences or all" })
        suggestions = options.flag("suggestions", default: true)
        slideToType = options.flag("slide-to-type", default: true)
        doubleSpacePeriod = options.flag("double-space-period", default: true)
        capsLock = options.flag("caps-lock", default: true)
        stickyKeys = options.flag("sticky-keys", default: true)
        learning = options.flag("learning", default: true)
        dictionary = options["dictionary"].map { named in
            let parts = named.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, !parts[0].contains("/"), !parts[0].isEmpty {
                return (Language.primary(parts[0].lowercased()), parts[1])
            }
            return ("en", named)
        }

        func seconds(_ name: String, _ range: ClosedRange<Double>) -> Double? {
            options.value(name, { Double($0).flatMap { range.contains($0) ? $0 : nil } },
                          problem: { "bad \($1) '\($0)': expected seconds from \(range.lowerBound) to \(range.upperBound)" })
        }
        timing.slowKeys = seconds("slow-keys", 0...5) ?? timing.slowKeys
        timing.bounceKeys = seconds("bounce-keys", 0...5) ?? timing.bounceKeys
        timing.longPress = seconds("long-press", 0.1...5) ?? timing.longPress
        timing.keyRepeat = options.flag("key-repeat", default: true)
        timing.dwell = seconds("dwell", 0...10) ?? timing.dwell

        let scan = options.value("scan", { ["auto", "step", "off"].contains($0) ? $0 : nil },
                                 problem: { "unknown \($1) '\($0)': expected auto, step or off" }) ?? "off"
        let mode = ScanSettings.Mode(rawValue: scan)
        if let mode {
            var scanning = ScanSettings(mode: mode)
            scanning.interval = options.value("scan-interval", { Double($0).flatMap { (0.2...10).contains($0) ? $0 : nil } },
                problem: { "bad \($1) '\($0)': expected seconds from 0.2 to 10" }) ?? scanning.interval
            scanning.idleCycles = options.value("scan-cycles", { Int($0).flatMap { (1...100).contains($0) ? $0 : nil } },
                problem: { "bad \($1) '\($0)': expected a count from 1 to 100" }) ?? scanning.idleCycles
            self.scanning = scanning
        }
        scanSwitches = Self.listed(options["scan-switch"] ?? (mode == .step ? "F11,F12" : "F12"))

        sound = options.flag("sound", default: true)
        volume = options.value("volume", { text in
            Double(text.hasSuffix("%") ? String(text.dropLast()) : text).flatMap { (0...100).contains($0) ? $0 / 100 : nil }
        }, problem: { "bad \($1) '\($0)': expected a number from 0 to 100" }) ?? 1
    }

    /// The settings as the settings panel shows them, by the settings file's names, in its form ("on",
    /// "dark", "0.8"); a setting at its default is left out where its default depends on the keyboard.
    var panelValues: [String: String] {
        var values: [String: String] = [:]
        let onOff = { (on: Bool) in on ? "on" : "off" }
        let number = { (value: Double) in value == value.rounded() ? String(Int(value)) : String(value) }
        values["theme"] = themeFollowsDesktop ? "desktop" : theme.name
        if labelScale != 1 { values["label-size"] = number(labelScale * 100) }
        if let height = options["height"], self.height != nil { values["height"] = height }
        values["floating"] = onOff(floating)
        values["sound"] = onOff(sound)
        if volume != 1 { values["volume"] = number(volume * 100) }
        values["emoji"] = onOff(emoji)
        values["suggestions"] = onOff(suggestions)
        values["slide-to-type"] = onOff(slideToType)
        values["double-space-period"] = onOff(doubleSpacePeriod)
        values["caps-lock"] = onOff(capsLock)
        values["sticky-keys"] = onOff(stickyKeys)
        values["learning"] = onOff(learning)
        if let on = traits.autocorrection { values["autocorrection"] = onOff(on) }
        if let on = traits.smartQuotes { values["smart-quotes"] = onOff(on) }
        if let mode = traits.autocapitalization { values["autocapitalization"] = mode.rawValue }
        values["key-repeat"] = onOff(timing.keyRepeat)
        if options["scan-switch"] != nil { values["scan-switch"] = scanSwitches.joined(separator: ", ") }
        let defaults = TypingEngine.Timing()
        if timing.longPress != defaults.longPress { values["long-press"] = number(timing.longPress) }
        if timing.slowKeys > 0 { values["slow-keys"] = number(timing.slowKeys) }
        if timing.bounceKeys > 0 { values["bounce-keys"] = number(timing.bounceKeys) }
        if timing.dwell > 0 { values["dwell"] = number(timing.dwell) }
        if let named = options["scan-switch"] { values["scan-switch"] = named }
        if let scanning {
            values["scan"] = scanning.mode.rawValue
            if scanning.interval != ScanSettings(mode: .auto).interval { values["scan-interval"] = number(scanning.interval) }
        }
        if let autoShow { values["auto-show"] = autoShow.rawValue }
        values["show-button"] = onOff(showButton)
        return values
    }

    /// Whether a setting checked only later (against the layouts read) is good; when not, the problem ends
    /// the program if the command line gave it, or is said with its file and line, the default holding.
    func accepts(_ name: String, _ good: Bool, problem: @autoclosure () -> String) -> Bool {
        if good { return true }
        guard let origin = options.origins[name] else { fail(problem()) }
        warn("\(origin): \(problem()); using the default")
        return false
    }

    /// The names of a comma-separated list, trimmed, empty ones left out.
    static func listed(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
    }
}
