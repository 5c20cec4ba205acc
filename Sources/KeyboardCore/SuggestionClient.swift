internal import Basics
public import EventLoop
internal import Typing
internal import Words

/// The suggestion bar's side of the keyboard: the worker that decodes words on its thread, started after
/// the first frame, asked at the end of each round in which the word changed, told of the words typed;
/// its answers go to the engine. An event-loop source while the worker runs.
public final class SuggestionClient: EventSource {
    private unowned let keyboard: Keyboard
    /// Nil when suggestions are off.
    private var worker: SuggestionWorker?
    /// The engine's suggestion generation when it was last asked.
    private var lastGeneration: Int?

    init(keyboard: Keyboard) {
        self.keyboard = keyboard
        learning = keyboard.configuration.learning
    }

    /// Whether words typed are learned; off, the worker is told nothing.
    var learning = true

    /// Starts the worker, when suggestions are on and the dictionary's place is known (and it is not
    /// running already: the settings panel turns suggestions on).
    public func start() {
        guard worker == nil, keyboard.keyboardEngine.suggestionsEnabled else { return }
        guard let files = keyboard.configuration.suggestionFiles else {
            warn("no dictionary was found; suggestions are off")
            keyboard.turnSuggestionsOff()
            return
        }
        guard let worker = SuggestionWorker(files: files, report: { warn($0) }) else {
            keyboard.turnSuggestionsOff()
            return
        }
        worker.delivered = { [unowned self] outcome in
            switch outcome {
            case .suggestions(let suggestions):
                keyboard.receive(suggestions)
            case .failed(let message, let language):
                // That language's keyboards lose their bar; the other languages keep theirs.
                if keyboard.dictionaryFailed(language: language) {
                    warn("\(message); no suggestions in '\(language)', typing goes on")
                } else {
                    warn("\(message); suggestions are off, typing goes on")
                    stop()
                }
            }
        }
        self.worker = worker
    }

    public func prepare(now: Double) -> Interest { worker?.prepare(now: now) ?? .nothing }
    public func turn(_ ready: [Readiness], now: Double) { worker?.turn(ready, now: now) }

    /// Stops the worker (it saves the words learned first).
    func stop() {
        worker?.stop()
        worker = nil
    }

    /// Asks for suggestions when the word or the keyboard changed since the last request. Called at the
    /// end of every round, so it compares one number before building anything.
    func askIfChanged() {
        // Read in place: a copy of the engine at every round costs a retain of each of its parts.
        guard let worker, keyboard.engine.suggestionGeneration != lastGeneration else { return }
        lastGeneration = keyboard.engine.suggestionGeneration
        if let request = keyboard.engine.suggestionRequest() { worker.ask(request) }
    }

    /// Tells the learner of the words an update typed.
    func learn(_ update: Update) {
        guard learning, let worker else { return }
        for event in update.words { worker.tell(event, language: update.wordLanguage) }
    }

    /// Forgets every word learned (`keypane forget`).
    func forget() { worker?.forget() }
}
