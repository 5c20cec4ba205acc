internal import EventLoop
internal import KeyboardModel
internal import Typing

/// What the keyboard does for `keypane show`, `hide`, `toggle`, `status`, `set` and `type` (`ControlServer`
/// reads the requests from the socket and writes the answers back).
extension Keyboard {
    /// With switch scanning on, the keys it highlights now, left to right, by name (or an open popup's cell),
    /// and, auto scanning, in how many seconds the highlight moves on (a script picks a key in time).
    private var scanStatus: String {
        guard engine.scanning != nil else { return "" }
        let next = engine.scanNextStep.map { step -> String in
            let hundredths = Int((max(0, step - EventLoop.monotonicNow()) * 100).rounded())
            return "scan-step: \(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)\n"
        }
        return "scanned: " + engine.scanHighlight.joined(separator: " ") + "\n" + (next ?? "")
    }

    /// With the settings panel open, the page shown; with the keyboard's own settings, what they are now.
    private var settingsStatus: String {
        settings.status + "theme: \(display.themeName)\nsound: \(soundOn && sound != nil ? "on" : "off")\n"
    }

    /// Does what a request asks, and says what to answer.
    public func answer(_ request: ControlRequest) -> Result<String, ControlError> {
        switch request {
        case .show: show()
        case .hide: hide()
        case .toggle: toggle()
        case .forget:
            suggestions.forget()
        case .replacements:
            reloadReplacements()
        case .status:
            return .success("""
                visible: \(display.isShown ? "yes" : "no")
                type: \(engine.enabled[engine.current])
                layer: \(engine.layer)
                shift: \(engine.state.shift.rawValue)
                return-key: \(engine.options.returnKey.rawValue)
                keyboards: \(keyboardEngine.enabled.joined(separator: ","))
                placement: \(display.isFloating ? "floating" : "docked")
                secure: \(engine.composer.traits.secureEntry ? "yes" : "no")
                remembered: \(engine.composer.record.count)
                auto-show: \(fields?.showsOn.rawValue ?? AutoShow.never.rawValue)
                suggestions: \(engine.state.bar.map { $0.look == .correction ? "[\($0.text)]" : $0.text }.joined(separator: " | "))
                suggestions-current: \(engine.barIsCurrent ? "yes" : "no")

                """ + settingsStatus + scanStatus)
        case .set(let type, let returnKeyName):
            if let type, engine.library[type] == nil, !readLayout(type) {
                if engine.library.available.contains(type) {
                    return .failure(ControlError("the \(type) keyboard cannot be read: the keyboard's messages say why"))
                }
                let known = engine.library.available.joined(separator: ", ")
                return .failure(ControlError("unknown keyboard type '\(type)': expected one of \(known)"))
            }
            var returnKey = engine.options.returnKey
            if let returnKeyName {
                guard let named = ReturnKeyType(rawValue: returnKeyName) else {
                    return .failure(ControlError("unknown return key '\(returnKeyName)': expected one of \(ReturnKeyType.allNames)"))
                }
                returnKey = named
            }
            show(layout: type ?? engine.enabled[engine.current], returnKey: returnKey)
        case .type(let text):
            display.type(.text(text))
            display.flush()
        case .settings(let page):
            guard configuration.settingsPanel != nil else {
                return .failure(ControlError("the settings panel is locked by the administrator"))
            }
            guard settings.open(page: page) else {
                let pages = settings.panel()?.layers.joined(separator: ", ") ?? ""
                return .failure(ControlError("unknown settings page '\(page ?? "")': expected one of \(pages)"))
            }
            show()
        }
        return .success("")
    }
}
