import HTTPServer
import Metrics
import Locking
import TestSupport
import Testing
@testable import RowstreamKit

/// A viewer's first batch starts loading where its stream opens (issue 17, arrivals): for a source whose loaders
/// start on the caller (``BatchSource/startsOnCaller``, the config tables), a batch the loader has at once (a page
/// from memory) is written before the stream's `open` returns, with no task hop; other sources load as before.
@Suite("A viewer's first batch starts where its stream opens")
struct FirstBatchOnCallerTests {
    /// A table whose first batch is two items the loader has at once.
    static func table(startsOnCaller: Bool) -> TableBinding {
        let source = BatchSource<String, Int>(initialToken: 0, startsOnCaller: startsOnCaller) { offset in
            offset == 0 ? .items(["a", "b"], next: 1) : .completed([])
        }
        return TableBinding(name: "t", title: "T", columns: [TableColumn("Value")], source: source) { value, row in
            row.key = value
            row.text(value)
        }
    }

    /// What a stream's writer was given, as text. Thread-safe.
    final class Written: Sendable {
        private let text = Lock("")
        var writer: StreamWriter {
            StreamWriter { [self] output in
                if case .bytes(let bytes) = output { text.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }
            }
        }
        var value: String { text.withLock { $0 } }
    }

    /// Opens a viewer of `table` on a new writer; returns what was written by the time `open` returned, and the
    /// writer (close it to end the viewer).
    static func open(_ table: TableBinding, into written: Written) -> (String, StreamWriter) {
        let writer = written.writer
        ViewerSession.open(table: table, writer: writer, resume: nil, resetFirst: false, registry: SessionRegistry(),
                           metrics: ServerMetrics(registry: MetricsRegistry(), tables: ["t"]), batchTimeout: .seconds(30))
        return (written.value, writer)
    }

    @Test("a config-like source: session, loading and rows are written before open returns")
    func aBatchAtHandIsWrittenBeforeOpenReturns() {
        let written = Written()
        let (atOpen, writer) = Self.open(Self.table(startsOnCaller: true), into: written)
        defer { writer.close() }
        #expect(atOpen.contains("event: session\n"))
        #expect(atOpen.contains("event: loading\n"))
        #expect(atOpen.contains("event: rows\n"), "written: \(atOpen)")
        #expect(atOpen.contains("data-key=\"a\"") && atOpen.contains("data-key=\"b\""))
    }

    @Test("a code-defined source loads on the cooperative pool, as documented, and its rows still arrive")
    func otherSourcesLoadAsBefore() async {
        #expect(!Self.table(startsOnCaller: false).firstBatchOnCaller)
        let written = Written()
        let (_, writer) = Self.open(Self.table(startsOnCaller: false), into: written)
        defer { writer.close() }
        #expect(await eventually { written.value.contains("event: rows\n") })
    }
}
