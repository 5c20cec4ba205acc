import Testing
import X11Host

@Suite struct ControlRequestTests {
    @Test func requestsReadBackAsTheyWereWritten() {
        let requests: [ControlRequest] = [.show, .hide, .toggle, .status, .set(type: "email", returnKey: "go"),
                                          .set(type: nil, returnKey: "done"), .set(type: "url", returnKey: nil),
                                          .type("line one\nline two, €"), .type("--")]
        for request in requests { #expect(ControlRequest.parse(request.encoded) == .success(request)) }
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
            (Array("SHOW".utf8), "unknown command 'SHOW': expected show, hide, toggle, status, forget, set or type"),
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
