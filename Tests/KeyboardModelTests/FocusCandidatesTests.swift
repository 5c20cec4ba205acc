import KeyboardModel
import Testing

@Suite struct FocusCandidatesTests {
    typealias Candidates = FocusCandidates<String, String>

    /// Announces `object` of process `pid` at `time`, describes it, and says its process: what to act on.
    static func announce(_ object: String, pid: Int?, at time: Double, in candidates: inout Candidates) -> String? {
        let (ticket, _) = candidates.gained(object, at: time)
        let first = candidates.described(ticket, as: object)
        let second = candidates.learned(ticket, processID: pid)
        return (second ?? first)?.object
    }

    @Test func theLatestAnnouncementWinsWithinOneProcess() {
        var candidates = Candidates()
        _ = candidates.activated(processID: 10)
        #expect(Self.announce("entry", pid: 10, at: 0, in: &candidates) == "entry")
        #expect(Self.announce("other entry", pid: 10, at: 1, in: &candidates) == "other entry")
    }

    @Test func nothingIsChosenBeforeTheProcessIsKnown() {
        var candidates = Candidates()
        _ = candidates.activated(processID: 10)
        let (ticket, _) = candidates.gained("entry", at: 0)
        #expect(candidates.described(ticket, as: "entry") == nil)
        #expect(candidates.learned(ticket, processID: 10)?.object == "entry")
    }

    /// The failure seen at an Alt+Tab: the window left announces its password field after the window
    /// gained announced its entry, and never takes it back.
    @Test func aLateAnnouncementFromAnotherWindowDoesNotWin() {
        var candidates = Candidates()
        _ = candidates.activated(processID: 20)
        #expect(Self.announce("password", pid: 20, at: 0, in: &candidates) == "password")
        _ = candidates.activated(processID: 10)
        #expect(Self.announce("entry", pid: 10, at: 1, in: &candidates) == "entry")
        _ = candidates.lost("password")
        #expect(Self.announce("password", pid: 20, at: 1.01, in: &candidates) == nil)
        // Its window active again, the password field has the focus.
        #expect(candidates.activated(processID: 20)?.object == "password")
        #expect(candidates.activated(processID: 10)?.object == "entry")
    }

    @Test func theActiveWindowMayChangeAfterTheLateAnnouncement() {
        var candidates = Candidates()
        _ = candidates.activated(processID: 20)
        #expect(Self.announce("entry", pid: 10, at: 0, in: &candidates) == "entry")
        #expect(Self.announce("password", pid: 20, at: 0.1, in: &candidates) == "password")
        #expect(candidates.activated(processID: 10)?.object == "entry")
    }

    /// An application in a sandbox announces with process numbers the window manager does not know: the
    /// latest announcement wins, as without the window manager.
    @Test func unknownProcessesFallBackToTheLatest() {
        var candidates = Candidates()
        _ = candidates.activated(processID: 99)
        #expect(Self.announce("entry", pid: 10, at: 0, in: &candidates) == "entry")
        #expect(Self.announce("password", pid: nil, at: 1, in: &candidates) == "password")
        _ = candidates.activated(processID: nil)
        #expect(Self.announce("entry", pid: 10, at: 2, in: &candidates) == "entry")
    }

    @Test func aFieldAnnouncedAgainAndLostGivesTheFocusBack() {
        var candidates = Candidates()
        #expect(Self.announce("entry", pid: nil, at: 0, in: &candidates) == "entry")
        #expect(Self.announce("password", pid: nil, at: 5, in: &candidates) == "password")
        #expect(candidates.lost("password").act?.object == nil, "focus announced long after stays left")
        #expect(Self.announce("password", pid: nil, at: 6, in: &candidates) == "password")
        #expect(Self.announce("entry", pid: nil, at: 7, in: &candidates) == "entry")
        #expect(Self.announce("password", pid: nil, at: 7.1, in: &candidates) == "password")
        let (removed, act) = candidates.lost("password")
        #expect(removed == "password")
        #expect(act?.object == "entry")
    }

    @Test func onlyAFewAreKept() {
        var candidates = Candidates()
        var dropped: [String] = []
        for index in 0..<6 {
            if let object = candidates.gained("field \(index)", at: Double(index)).dropped { dropped.append(object) }
        }
        #expect(dropped == ["field 0", "field 1"])
        #expect(candidates.candidates.map(\.object) == ["field 2", "field 3", "field 4", "field 5"])
    }
}
