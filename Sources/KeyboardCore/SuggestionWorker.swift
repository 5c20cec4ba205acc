public import EventLoop
internal import Basics
public import Typing
public import Words

#if canImport(Glibc)
import Glibc
#endif

/// Decoding off the keystroke's path: a thread of its own maps the dictionary, keeps the learned words,
/// and answers the latest request; its answers come back to the event loop through a pipe, as a source.
/// A request not yet taken is replaced by a newer one (its answer would be stale anyway).
public final class SuggestionWorker: EventSource, @unchecked Sendable {
    /// What comes back.
    public enum Outcome: Sendable {
        case suggestions(Suggestions)
        /// A language's dictionary could not be read: that language gets no suggestions.
        case failed(String, language: String)
    }

    /// Where the worker finds its files.
    public struct Files: Sendable {
        /// Each language's dictionary, by primary tag (en, de).
        public var dictionaries: [String: String]
        /// Where learned words are kept, a file per language (`LearnedFile.standard`); nil learns for this
        /// run only.
        public var learnedFolder: String?
        public init(dictionaries: [String: String], learnedFolder: String?) {
            self.dictionaries = dictionaries
            self.learnedFolder = learnedFolder
        }
    }

    /// Seconds without a word before learned words are written.
    static let saveAfterRest = 3.0
    /// Seconds without a request before the dictionaries' pages are let go (`WordDictionary.rest`).
    static let dictionaryRest = 1.0

    /// Told, on the loop's thread, of each outcome.
    var delivered: (Outcome) -> Void = { _ in }

    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    // Guarded by the mutex:
    private var request: SuggestionRequest?
    private var events: [(WordEvent, language: String)] = []
    private var forgetting = false
    private var stopping = false
    private var outcomes: [Outcome] = []

    private let readEnd: Int32, writeEnd: Int32
    private var thread: pthread_t?
    private let files: Files
    private let report: @Sendable (String) -> Void

    /// Starts the thread; it maps a language's dictionary and reads its learned words when first asked.
    public init?(files: Files, report: @escaping @Sendable (String) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            report("no suggestions: cannot make a pipe: \(String(cString: strerror(errno)))")
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        self.files = files
        self.report = report
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        // Unretained, as before: stopping joins the thread before the worker goes.
        guard let thread = startThread({ [unowned(unsafe) self] in self.work() }) else {
            report("no suggestions: cannot start their thread")
            close(readEnd)
            close(writeEnd)
            return nil
        }
        self.thread = thread
    }

    /// Asks for suggestions; an older request not yet taken is dropped.
    public func ask(_ request: SuggestionRequest) {
        locked {
            self.request = request
        }
    }

    /// Tells the learner of a word written in a language.
    public func tell(_ event: WordEvent, language: String) {
        locked { events.append((event, language)) }
    }

    /// Forgets every learned word, in memory and on disk.
    public func forget() {
        locked { forgetting = true }
    }

    /// Ends the thread, saving what it learned.
    public func stop() {
        guard let thread else { return }
        locked { stopping = true }
        pthread_join(thread, nil)
        self.thread = nil
        close(readEnd)
        close(writeEnd)
    }

    private func locked(_ body: () -> Void) {
        pthread_mutex_lock(&mutex)
        body()
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    // MARK: - The loop's side

    public func prepare(now: Double) -> Interest { .reading(readEnd) }

    public func turn(_ ready: [Readiness], now: Double) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        pthread_mutex_lock(&mutex)
        let taken = outcomes
        outcomes = []
        pthread_mutex_unlock(&mutex)
        for outcome in taken { delivered(outcome) }
    }

    // MARK: - The worker's side

    private func post(_ outcome: Outcome) {
        pthread_mutex_lock(&mutex)
        outcomes.append(outcome)
        pthread_mutex_unlock(&mutex)
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// A language's part of the worker: its dictionary, mapped when first needed, and the words learned.
    private final class Language {
        let suggester: Suggester?
        var user = UserWords()
        /// The decoder's search of the word typed, extended by its next tap.
        var search = SearchMemo()
        var file: LearnedFile?
        var dirty = false
        /// Said once, not at every rest, until the words can be kept again.
        var failing = false

        init(_ language: String, files: Files, report: (String) -> Void, post: (Outcome) -> Void) {
            var suggester: Suggester?
            if let path = files.dictionaries[language] {
                do { suggester = Suggester(decoder: Decoder(dictionary: try WordDictionary(path: path))) } catch {
                    post(.failed("\(error)", language: language))
                }
            }
            self.suggester = suggester
            file = files.learnedFolder.map { LearnedFile(path: $0 + "/learned-" + language) }
            if let file {
                do { user = try file.load() } catch {
                    // Never overwrite a file that could not be read.
                    report("cannot read the learned words (\(error)); this run learns nothing for later in it")
                    self.file = nil
                }
            }
        }

        func learn(_ event: WordEvent) {
            switch event {
            case .typed(let word, let previous, let taps, let plan):
                guard word.contains(where: \.isLetter), !Suggester.isExempt(word) else { return }
                user.learn(word, after: previous)
                // Taps that typed the word's letters teach where the user's fingers land.
                let units = Array(word.lowercased().utf16)
                if taps.count == units.count, suggester?.decoder.dictionary.id(of: word.lowercased()) != nil {
                    for (tap, unit) in zip(taps, units) { user.touch.learn(tap, meant: unit, plan: plan) }
                }
            case .kept(let word):
                user.keep(word)
            }
            dirty = true
        }

        func save(report: (String) -> Void) {
            guard dirty, let file else { return }
            dirty = false
            do {
                try file.save(user)
                if failing { report("the learned words are kept again") }
                failing = false
            } catch {
                if !failing { report("cannot keep the learned words: \(error); typing goes on") }
                failing = true
            }
        }
    }

    private func work() {
        var languages: [String: Language] = [:]
        // Where the person's fingers land is theirs, not a language's: one touch model for all, kept in
        // every language's file (the one taught most wins when files differ).
        var touch: TouchModel?
        func taught(_ model: TouchModel) -> Int { model.rowOffsets.values.reduce(0) { $0 + $1.taps } }
        func language(_ tag: String) -> Language {
            let words: Language
            if let known = languages[tag] { words = known } else {
                words = Language(tag, files: files, report: report, post: post)
                languages[tag] = words
                if touch.map({ taught($0) < taught(words.user.touch) }) ?? true { touch = words.user.touch }
            }
            words.user.touch = touch!
            return words
        }
        // When a request or a word last came, and whether dictionary pages were read since the last rest.
        var lastActive = Self.realTime()
        var resident = false
        while true {
            pthread_mutex_lock(&mutex)
            var idle = false
            while request == nil && events.isEmpty && !forgetting && !stopping {
                guard resident || languages.values.contains(where: \.dirty) else {
                    pthread_cond_wait(&condition, &mutex)
                    continue
                }
                // Once typing has rested a moment the dictionaries' pages are let go; once it has rested
                // longer, learned words are written (a sync can take a while): never between a tap and its
                // suggestions.
                let wait = resident ? Self.dictionaryRest : Self.saveAfterRest
                var deadline = timespec(tv_sec: Int(lastActive + wait),
                                        tv_nsec: Int((lastActive + wait).truncatingRemainder(dividingBy: 1) * 1e9))
                if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT, request == nil, events.isEmpty {
                    idle = true
                    break
                }
            }
            let request = self.request, events = self.events, forget = forgetting, stop = stopping
            self.request = nil
            self.events = []
            forgetting = false
            pthread_mutex_unlock(&mutex)
            if request != nil || !events.isEmpty { lastActive = Self.realTime() }
            resident = resident || request != nil || !events.isEmpty

            for (event, tag) in events {
                let words = language(tag)
                words.learn(event)
                touch = words.user.touch
            }
            if forget {
                for known in languages.values {
                    known.user = UserWords()
                    known.dirty = false
                }
                touch = TouchModel()
                if let folder = files.learnedFolder {
                    do { try LearnedFile.removeAll(in: folder) } catch { report("cannot remove the learned words: \(error)") }
                }
            }
            if let request {
                let words = language(request.language)
                if let suggester = words.suggester {
                    post(.suggestions(suggester.suggest(request, user: words.user, memo: &words.search)))
                }
            }
            if idle && resident {
                for words in languages.values { words.suggester?.decoder.dictionary.rest() }
                resident = false
            }
            if stop || (idle && Self.realTime() >= lastActive + Self.saveAfterRest) {
                for words in languages.values {
                    words.user.touch = touch ?? words.user.touch
                    words.save(report: report)
                }
            }
            if stop { return }
        }
    }

    /// Seconds on the clock `pthread_cond_timedwait` waits by.
    private static func realTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
