import Locking
import Metrics
import Testing
@testable import RowstreamKit

/// The one seam for rows (``RowSource``): the request a load serves (its viewer, its use, its logger) reaches the
/// source explicitly, from the table's loader, in whatever task the load runs: a detached task too, which inherits
/// no task-local. A ``BatchSource`` given a `(Token)` loader still reads its viewer from ``Viewer/current``, bound
/// from the request around each call; the pipeline times each load into the histogram it is given.
@Suite struct RowSourceTests {
    /// What each walk and batch was for. Thread-safe: one `Lock`.
    final class Seen: Sendable {
        let walks = Lock<[String]>([])
        let batches = Lock<[String]>([])
        let taskLocal = Lock<[String]>([])
    }

    /// A code table's own source: each walk is the request's viewer name, each batch of two names it.
    struct ViewerNames: RowSource {
        let seen: Seen
        var initialToken: Int { 0 }

        func walk(for request: RowRequest) -> String {
            seen.walks.withLock { $0.append(request.viewer.name + (request.isRefresh ? " (refresh)" : "")) }
            return request.viewer.name
        }

        func batch(at token: Int, in viewer: String) async throws -> LoadResult<String, Int> {
            seen.batches.withLock { $0.append(viewer) }
            seen.taskLocal.withLock { $0.append(Viewer.current.name) }
            return token == 0 ? .items([viewer, viewer], next: 1) : .completed([])
        }
    }

    static func table(_ source: some RowSource<String>) -> TableBinding {
        TableBinding(name: "names", title: "Names", columns: [TableColumn("Name")], rows: source) { name, row in
            row.text(name)
        }
    }

    @Test("the request's viewer reaches a source's walk and batches in a detached task, with no task-local bound")
    func viewerReachesTheSourceWithoutTaskLocals() async throws {
        let seen = Seen()
        let table = Self.table(ViewerNames(seen: seen))
        let rows = try await Task.detached {
            try await table.loadBatch(at: .first, for: RowRequest(viewer: Viewer(name: "alice"))).rows
        }.value
        #expect(rows.count == 2)
        #expect(seen.walks.withLock { $0 } == ["alice"])
        #expect(seen.batches.withLock { $0 } == ["alice"])
        #expect(seen.taskLocal.withLock { $0 } == [""], "nothing was bound: the viewer came as an argument")

        let refresh = RowRequest(viewer: Viewer(name: "bob")).using(.fresh)
        _ = try await Task.detached { try await table.loadBatch(at: .first, for: refresh) }.value
        #expect(seen.walks.withLock { $0 }.last == "bob (refresh)")
    }

    @Test("a BatchSource's loader gets the request (loadFor:), or reads the same viewer from Viewer.current")
    func batchSourceLoadersSeeTheRequestsViewer() async throws {
        let names = Lock<[String]>([])
        let given = BatchSource<String, Int>(initialToken: 0, loadFor: { _, request in
            names.withLock { $0.append("given " + request.viewer.name) }
            return .completed(["x"])
        })
        let bound = BatchSource<String, Int>(initialToken: 0) { _ in
            names.withLock { $0.append("bound " + Viewer.current.name) }
            return .completed(["y"])
        }
        for source in [given, bound] {
            let table = Self.table(source)
            _ = try await Task.detached {
                try await table.loadBatch(at: .first, for: RowRequest(viewer: Viewer(name: "carol")))
            }.value
        }
        #expect(names.withLock { $0 } == ["given carol", "bound carol"])
    }

    @Test("the pipeline times each load of a session's loader into the table's upstream histogram")
    func thePipelineTimesItsLoads() async throws {
        let table = Self.table(ViewerNames(seen: Seen()))
        let histogram = MetricsRegistry().histogram("t", help: "t", buckets: [1])
        let load = table.loader(for: RowRequest(viewer: Viewer(name: "dan")), timing: histogram)
        guard case .items(_, let next) = try await load(.first) else { Issue.record("no next batch"); return }
        _ = try await load(next)
        #expect(histogram.count == 2)
        _ = try await table.loadBatch(at: .first)
        #expect(histogram.count == 2, "only the loader given the histogram is timed")
    }
}
