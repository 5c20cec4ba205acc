import KeyboardCore
import TestSupport
import Testing
import X11Host

@Suite struct ControlRequestTests {
    @Test func requestsReadBackAsTheyWereWritten() {
        let requests: [ControlRequest] = [.show, .hide, .toggle, .status, .set(type: "email", returnKey: "go"),
                                          .set(type: nil, returnKey: "done"), .set(type: "url", returnKey: nil),
                                          .type("line one\nline two, €"), .type("--"), .settings(page: nil),
                                          .settings(page: "look")]
        for request in requests { #expect(ControlRequest.parse(request.encoded) == .success(request)) }
        // Lines that end in CRLF, as some scripts write them; the text to type is kept as sent.
        #expect(ControlRequest.parse(Array("status\r\n".utf8)) == .success(.status))
        #expect(ControlRequest.parse(Array("set\r\ntype=email\r\n".utf8)) == .success(.set(type: "email", returnKey: nil)))
        #expect(ControlRequest.parse(Array("type\r\na\r\nb".utf8)) == .success(.type("a\r\nb")))
    }

    /// Mutated requests (and random bytes) are answered or refused with a reason, never a crash; one that
    /// reads as a request reads back the same from its own encoding.
    @Test func mutatedRequestsReadBackOrAreRefused() {
        var fuzz = Fuzz()
        let seeds: [[UInt8]] = ([.show, .hide, .toggle, .status, .forget, .set(type: "email", returnKey: "go"),
                                 .type("line one\nline two, €")] as [ControlRequest]).map(\.encoded)
        var accepted = 0
        for _ in 0..<Fuzz.iterations(3000) {
            let bytes = fuzz.mutate(seeds.randomElement(using: &fuzz)!, splicing: seeds)
            switch ControlRequest.parse(bytes) {
            case .success(let request):
                accepted += 1
                #expect(ControlRequest.parse(request.encoded) == .success(request), "seed \(fuzz.seed): \(bytes)")
            case .failure(let error):
                #expect(!error.description.isEmpty && !error.description.contains("\n"), "seed \(fuzz.seed): \(error.description.debugDescription)")
            }
        }
        print("control fuzz (seed \(fuzz.seed)): \(accepted) read as requests")
    }

    @Test func malformedRequestsAreRefusedWithAReason() {
        let cases: [([UInt8], String)] = [
            (Array("show\nnow".utf8), "'show' takes nothing more"),
            (Array("set".utf8), "'set' needs a type or a return-key"),
            (Array("set\ntheme=dark".utf8), "'set' takes type and return-key, not 'theme'"),
            (Array("set\nemail".utf8), "'set' takes name=value lines, not 'email'"),
            (Array("type".utf8), "'type' needs text"),
            ([0xFF, 0x00], "request is not UTF-8 text"),
            ([UInt8](repeating: 0x61, count: ControlRequest.limit + 1), "request longer than 65536 bytes"),
            (Array("SHOW".utf8), "unknown command 'SHOW': expected show, hide, toggle, status, forget, replacements, set, type or settings"),
            // Found by the property test: "\r\n" is one Character, so such a line was not split, and the
            // answer quoted it across two lines; control characters are quoted escaped.
            (Array("tog\r\nglke=y".utf8),
                "unknown command 'tog': expected show, hide, toggle, status, forget, replacements, set, type or settings"),
            (Array("\u{1b}[2J\rstatus".utf8), "unknown command '\\u{1B}[2J\\rstatus': expected show, hide, toggle, status, forget, replacements, set, type or settings"),
            (Array("set\r\ntheme=dark\r\n".utf8), "'set' takes type and return-key, not 'theme'"),
        ]
        for (bytes, message) in cases { #expect(ControlRequest.parse(bytes) == .failure(ControlError(message))) }
    }

    @Test func eachDisplayHasASocketOfItsOwn() {
        let zero = ControlSocket.path(display: ":0")
        #expect(zero.hasSuffix("/keypane-0.socket"))
        #expect(ControlSocket.path(display: ":0.1") == zero)
        #expect(ControlSocket.path(display: "host:0") == zero)
        #expect(ControlSocket.path(display: ":12").hasSuffix("/keypane-12.socket"))
        #expect(!ControlSocket.path(display: ":../../x").contains("/../"))
    }
}
