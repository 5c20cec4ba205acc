internal import Basics
internal import EventLoop
internal import Typing
internal import Words

/// The suggestion bar's part of the host: the worker is started after the first frame, asked at the end
/// of each round in which the word changed, told of the words typed, and its answers shown.
extension KeyboardHost {
    /// Starts the worker, when suggestions are on and the dictionary's place is known.
    func startSuggestions() -> SuggestionWorker? {
        guard engine.suggestionsEnabled else { return nil }
        guard let files = options.suggestionFiles else {
            warn("no dictionary was found; suggestions are off")
            engine.suggestionsEnabled = false
            painter.noteAll()
            return nil
        }
        guard let worker = SuggestionWorker(files: files, report: { warn($0) }) else {
            engine.suggestionsEnabled = false
            painter.noteAll()
            return nil
        }
        worker.delivered = { [unowned self] outcome in
            switch outcome {
            case .suggestions(let suggestions):
                apply(engine.receive(suggestions))
            case .failed(let message, let language):
                // That language's keyboards lose their bar; the other languages keep theirs.
                _ = engine.cancelTouches()
                engine.dictionaryLanguages.remove(language)
                painter.noteAll()
                guard engine.dictionaryLanguages.isEmpty else {
                    warn("\(message); no suggestions in '\(language)', typing goes on")
                    return
                }
                warn("\(message); suggestions are off, typing goes on")
                engine.suggestionsEnabled = false
                suggestionWorker?.stop()
                suggestionWorker.map { loop.remove($0) }
                suggestionWorker = nil
            }
        }
        return worker
    }

    /// Asks for suggestions when the word or the keyboard changed since the last request.
    /// Called at the end of every round, so it compares one number before building anything.
    func askForSuggestions() {
        guard let suggestionWorker, engine.suggestionGeneration != lastSuggestionGeneration else { return }
        lastSuggestionGeneration = engine.suggestionGeneration
        if let request = engine.suggestionRequest() { suggestionWorker.ask(request) }
    }

    /// Tells the learner of the words an update typed.
    func learn(_ update: Update) {
        guard let suggestionWorker else { return }
        for event in update.words { suggestionWorker.tell(event, language: update.wordLanguage) }
    }
}
