/// Which of the objects that said they got the focus has it. Applications announce focus on the
/// accessibility bus in their own time: at an Alt+Tab, the window left can announce its field again after
/// the window gained announced its own, and never take it back. The window manager's active window
/// settles it: of the announcements, the latest from the active window's process wins; where no
/// announcement comes from that process (an application in a sandbox has other process numbers), the
/// latest does.
///
/// `Object` is the announcing object's handle; `Description` what it said it is once asked.
public struct FocusCandidates<Object: Equatable, Description> {
    public struct Candidate {
        public let ticket: Int
        public let object: Object
        public let gainedAt: Double
        public internal(set) var description: Description?
        public internal(set) var processID: Int?
        /// Whether the question of its process was answered (nil when it could not be).
        var processAnswered = false
    }

    /// The latest few announcements, latest last; one that loses the focus leaves the list.
    public private(set) var candidates: [Candidate] = []
    /// The process of the window the window manager says is active, when known.
    public private(set) var activeProcess: Int?
    /// The candidate acted on last.
    private var current: Int?
    private var tickets = 0
    /// How many announcements are kept.
    static var kept: Int { 4 }
    /// How close together an application's announcement of its field and another's of theirs come at an
    /// Alt+Tab (the first application's window is active between the grab's end and the switch).
    public static var announcedAgain: Double { 0.5 }

    public init() {}

    /// An object announced that it got the focus: its ticket, and the object no longer kept, if any.
    public mutating func gained(_ object: Object, at time: Double) -> (ticket: Int, dropped: Object?) {
        tickets += 1
        candidates.append(Candidate(ticket: tickets, object: object, gainedAt: time))
        let dropped = candidates.count > Self.kept ? candidates.removeFirst().object : nil
        return (tickets, dropped)
    }

    /// The object of `ticket` said what it is: the candidate to act on now, if any.
    public mutating func described(_ ticket: Int, as description: Description) -> Candidate? {
        guard let index = candidates.firstIndex(where: { $0.ticket == ticket }) else { return nil }
        candidates[index].description = description
        return index == candidates.count - 1 ? choose() : nil
    }

    /// The process that announced `ticket` is `processID` (nil: it could not be told).
    public mutating func learned(_ ticket: Int, processID: Int?) -> Candidate? {
        guard let index = candidates.firstIndex(where: { $0.ticket == ticket }) else { return nil }
        candidates[index].processID = processID
        candidates[index].processAnswered = true
        return index == candidates.count - 1 ? choose() : nil
    }

    /// Another window is active, of process `processID` (nil when it does not say).
    public mutating func activated(processID: Int?) -> Candidate? {
        activeProcess = processID
        return choose()
    }

    /// An object lost the focus: it is no longer kept (the object to let go of), and the candidate to act
    /// on, if that changes. Usually another object gains the focus just after, and that says all; but one
    /// that announced its field again at an Alt+Tab then loses it: the one announced just before, in the
    /// other application, has the focus.
    public mutating func lost(_ object: Object) -> (removed: Object?, act: Candidate?) {
        guard let index = candidates.lastIndex(where: { $0.object == object }) else { return (nil, nil) }
        let wasLatest = index == candidates.count - 1
        let gone = candidates.remove(at: index)
        if current == gone.ticket { current = nil }
        // Only an object that gained the focus just before the one lost: focus that left long ago (a
        // button's, then a terminal without the bus took it) stays left.
        guard wasLatest, let latest = candidates.last, gone.gainedAt - latest.gainedAt < Self.announcedAgain else {
            return (gone.object, nil)
        }
        return (gone.object, choose())
    }

    /// The candidate that has the focus, when it differs from the one acted on last. Nothing is chosen
    /// until the latest announcement has said what it is and from which process: then the latest
    /// described one of the active process wins, or the latest when that process announced nothing.
    private mutating func choose() -> Candidate? {
        guard let latest = candidates.last, latest.description != nil, latest.processAnswered else { return nil }
        var chosen = latest
        if let active = activeProcess, latest.processID != active,
           let ofActive = candidates.last(where: { $0.processID == active && $0.description != nil }) {
            chosen = ofActive
        }
        guard chosen.ticket != current else { return nil }
        current = chosen.ticket
        return chosen
    }
}
