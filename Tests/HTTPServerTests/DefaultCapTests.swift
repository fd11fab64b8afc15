import Glibc
import Testing
import HTTPServer

/// The default process cap follows the open-file limit, so a flood meets the clear 503, never `EMFILE`
/// (docs/HARDENING.md: the soft limit less 256 descriptors kept for everything else; its doc comment: at least 64,
/// 16,000 when unlimited). Checked against those documented figures, not against the formula restated.
@Suite struct DefaultCapTests {
    @Test(arguments: [
        (rlim_t(1_024), 768), (rlim_t(4_096), 3_840), (rlim_t(65_536), 65_280), (rlim_t(300), 64), (rlim_t(64), 64),
        (rlim_t.max, 16_000),
    ])
    func theCapForAnOpenFileLimit(_ limit: rlim_t, _ cap: Int) {
        #expect(HTTPServerConfiguration.defaultMaxConnections(openFileLimit: limit) == cap)
    }

    @Test func theDefaultCapLeavesRoomUnderThisProcesssLimit() {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let cap = HTTPServerConfiguration().maxConnections
        #expect(cap == HTTPServerConfiguration.defaultMaxConnections(openFileLimit: limit.rlim_cur))
        if limit.rlim_cur < rlim_t(Int32.max), limit.rlim_cur > 320 {
            #expect(cap + 256 <= Int(limit.rlim_cur), "fewer than 256 descriptors left beside \(cap) connections")
        }
    }
}
