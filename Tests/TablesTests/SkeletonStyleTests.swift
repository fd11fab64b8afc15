import Testing
@testable import Tables

/// ``SkeletonStyle`` as the page gets it: attributes on the table and its speed in /tables.css.
@Suite struct SkeletonStyleTests {
    @Test func theShellCarriesTheChoicesAndTheSheetTheSpeed() {
        var spec = RendererTests.spec
        spec.skeleton = SkeletonStyle(animation: .shimmer, speed: 2.5, direction: .rightToLeft)
        let shell = String(decoding: TableRenderer(spec: spec).renderShell(streamURL: "/s", batchSize: 5, skeletonCount: 1),
                           as: UTF8.self)
        #expect(shell.contains(#" data-skeleton="shimmer" data-skeleton-direction="right-to-left" aria-busy="true">"#))
        var plain: [UInt8] = []
        TableRenderer(spec: spec).appendOpenTable(to: &plain)
        #expect(String(decoding: plain, as: UTF8.self).hasPrefix(
            #"<table class="rs-table" id="rs-table" data-table="repos" aria-label="Repositories" data-skeleton="shimmer" data-skeleton-direction="right-to-left">"#),
            "the page without script too")
        let css = TableStyleSheet.css([spec])
        #expect(css.contains("table.rs-table[data-table=\"repos\"]{--rs-skeleton-speed:2500ms}\n"))
    }

    @Test func aDefaultStyleWritesNothing() {
        let shell = String(decoding: TableRenderer(spec: RendererTests.spec).renderShell(
            streamURL: "/s", batchSize: 5, skeletonCount: 1), as: UTF8.self)
        #expect(!shell.contains("data-skeleton"))
        #expect(!TableStyleSheet.css([RendererTests.spec]).contains("--rs-skeleton"))
        var pulse = RendererTests.spec
        pulse.skeleton = SkeletonStyle(animation: .pulse)
        #expect(!TableStyleSheet.css([pulse]).contains("--rs-skeleton-speed"), "no speed chosen: the page's")
    }

    @Test(arguments: [(1.0, "1s"), (0.8, "800ms"), (2.25, "2250ms"), (20.0, "20s")])
    func speedsAreCSSTimes(speed: Double, css: String) {
        #expect(SkeletonStyle.seconds(speed) == css)
    }

    @Test func aTablesOptionsOverTheShared() {
        let shared = SkeletonStyle(animation: .pulse, speed: 3, direction: .topToBottom)
        #expect(SkeletonStyle(speed: 1).merged(over: shared) == SkeletonStyle(animation: .pulse, speed: 1, direction: .topToBottom))
        #expect(SkeletonStyle().isDefault && !shared.isDefault)
    }
}
