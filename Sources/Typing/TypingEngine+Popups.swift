internal import KeyboardModel

/// The popups of the typing engine: the key preview, long-press alternates, the Globe key's list.
extension TypingEngine {
    func hasLongPress(_ key: Int) -> Bool {
        let placed = geometry.keys[key]
        return !placed.alternates.isEmpty || (placed.function == .globe && (enabled.count > 1 || settingsInList))
            || placed.function == .dismiss
    }

    mutating func showPreview(for key: Int, _ update: inout Update) {
        guard let preview = Popup.preview(of: key, in: geometry) else { return }
        state.popups.append(preview)
        update.popupsChanged = true
    }

    mutating func openLongPress(key: Int, _ update: inout Update) {
        let placed = geometry.keys[key]
        state.popups.removeAll { $0.key == key }
        if placed.function == .globe {
            guard let list = Popup.keyboards(enabled.map { library[$0]!.title }, selected: current, in: geometry,
                                             hideTitle: options.labels["hide-keyboard"],
                                             settingsTitle: settingsInList ? settingsTitle : nil) else { return }
            state.popups.append(list)
        } else if placed.function == .dismiss {
            // As the iPad's keyboard key: held, it undocks the keyboard (or docks it again).
            update.actions.append(.toggleFloating)
            return
        } else if let alternates = Popup.alternates(of: key, in: geometry) {
            state.popups.append(alternates)
        }
        update.popupsChanged = true
    }

    /// Moves the selection of an open popup to follow the finger: across alternates, down the keyboard list.
    mutating func choose(in index: Int, x: Double, y: Double, _ update: inout Update) {
        let rect = PopupLayout.rect(for: state.popups[index], in: geometry)
        let popup = state.popups[index]
        switch popup {
        case .alternates(let key, let options, let selected):
            let chosen = PopupLayout.alternate(atX: x, y: y, in: rect, count: options.count)
            if chosen != selected { state.popups[index] = .alternates(key: key, options: options, selected: chosen) }
        case .keyboards(let key, let titles, let selected):
            let chosen = PopupLayout.cell(at: y - Double(rect.y), size: Double(rect.height), count: titles.count)
            if chosen != selected { state.popups[index] = .keyboards(key: key, titles: titles, selected: chosen) }
        case .preview:
            break
        }
        update.popupsChanged = state.popups[index] != popup
    }

    /// A cell of the Globe list chosen: a keyboard, the entry that hides the keyboard, or the settings at
    /// the end.
    func keyboardListAction(_ cell: Int, of titles: [String]) -> KeyAction {
        if cell < enabled.count { return .selectKeyboard(cell) }
        return settingsInList && cell == titles.count - 1 ? .openSettings : .dismiss
    }

    func isPreview(_ popup: Popup) -> Bool {
        if case .preview = popup { return true }
        return false
    }
}
