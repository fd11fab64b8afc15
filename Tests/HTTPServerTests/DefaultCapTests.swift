import Glibc
import Testing
import HTTPServer

/// The default process cap follows the open-file limit, so a flood meets the clear 503, never `EMFILE`.
@Suite struct DefaultCapTests {
    @Test func theDefaultProcessCapLeavesRoomUnderTheOpenFileLimit() {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let soft = limit.rlim_cur
        let expected = soft >= rlim_t(Int32.max) ? 16_000 : max(64, Int(soft) - 256)
        #expect(HTTPServerConfiguration.defaultMaxConnections() == expected)
        #expect(HTTPServerConfiguration().maxConnections == expected)
        #expect(expected < Int(min(soft, rlim_t(Int32.max))))
    }
}
