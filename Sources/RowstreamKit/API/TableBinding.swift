import Access
import Foundation
import JSON
import Metrics
import Sealing
import Tables

/// A table served from code: a ``BatchSource`` paired with a row template that fills the cells of one row for one
/// item (the `rowsSubscriber(cellIdentifier:cellType:cellConfig:)` of the originals). Mount bindings on a
/// ``RowstreamServer``; each gets the page (`/tables/NAME`), the event stream and every route of docs/PROTOCOL.md.
///
/// ```swift
/// let people = TableBinding(
///     name: "people", title: "People",
///     columns: [TableColumn("Name"), TableColumn("Joined", format: .date, width: "10rem")],
///     source: .pages { page in try await store.people(page: page) }
/// ) { person, row in
///     row.key = person.id
///     row.text(person.name)
///     row.date(person.joined)
/// }
/// ```
///
/// Errors: a loader that throws a ``LoadFailure`` shows its message (Retry when `isRetryable`); any other error
/// shows "Loading rows failed: " and its description, retryable, and is written to standard error. Do not put
/// secrets in error descriptions.
///
/// Thread-safe: an immutable value, `Sendable`. The row template runs on the thread that finished the load (on
/// Swift's cooperative pool), for several viewers at once: it must not block, and what it captures must be
/// `Sendable`.
public struct TableBinding: Sendable {
    /// Everything a binding holds, in one box shared by every copy: a copy (each viewer's session, its events,
    /// its choice) is one pointer. The settable parts below replace the box (at start-up, before serving).
    private var storage: Storage

    /// How rows look: the columns, sections and layout (the rows come typed, ``Row``).
    var spec: TableSpec { storage.spec }
    var renderer: TableRenderer { storage.renderer }
    /// The cell form a stream that asks for `asked` gets: cards keep their classes, so for a card table bare is
    /// classed, and its viewers of both kinds share one form's rendered batches (not one rendering each).
    func cellForm(_ asked: CellMarkup) -> CellMarkup { asked == .bare && storage.takesBareCells ? .bare : .classed }
    /// The renderer of a stream's rows whose cells open as `form` says (``CellMarkup``; see ``cellForm(_:)``).
    func renderer(_ form: CellMarkup) -> TableRenderer { cellForm(form) == .bare ? storage.bareRenderer : storage.renderer }
    /// The `rows` events of batches many viewers get at the same place in the same cell form, rendered once and
    /// shared.
    func sharedBatches(_ form: CellMarkup) -> SharedBatchBodies {
        cellForm(form) == .bare ? storage.sharedBareBatches : storage.sharedBatches
    }
    /// The `session` event without its id, serialized once (``SessionEventTemplate``).
    var sessionEvents: SessionEventTemplate { storage.sessionEvents }
    /// The protocol's column list (`session` event and `/api/tables`).
    var columnsJSON: JSONValue { storage.columnsJSON }
    /// Rows per batch, and skeleton rows shown while one loads.
    var batchSize: Int { storage.batchSize }
    /// Seals tokens handed to clients: positions in resume tokens with scope ``resumeScope``, the JSON proxy's
    /// cursors with ``proxyScope``, so neither opens on the other's route. Random until the binding is mounted: the
    /// server seals with its ``ServerConfiguration/sealingKeys`` (``sealing(with:)``).
    var seal: SealingKeys { storage.seal }
    /// The same table sealing its tokens with `keys` (set by the server that mounts it).
    func sealing(with keys: SealingKeys) -> TableBinding {
        var binding = self
        binding.storage = storage.sealing(with: keys)
        return binding
    }
    /// The loader of one request (a viewer's walk with its query, a refetch, a live refresh): sealed position in,
    /// rows and sealed next out (``RowPipeline``), each load observed in `timing` (nil: untimed). A partitioned
    /// table seals its positions for the request's viewer.
    func loader(for request: RowRequest, timing: Histogram? = nil) -> RowLoader {
        loaders(for: request, timing: timing).load
    }
    /// ``loader(for:timing:)`` with its walk's in-memory loader (``RowLoaders``).
    func loaders(for request: RowRequest, timing: Histogram? = nil) -> RowLoaders {
        storage.pipeline.loaders(for: request, scope: resumeScope(for: request.viewer), timing: timing)
    }
    /// Whether a viewer's first batch starts loading on the event loop opening its stream (``RowSource/startsOnCaller``).
    var firstBatchOnCaller: Bool { storage.pipeline.startsOnCaller }
    /// Whether its rows are loaded reading the viewer's request headers, by its source or its ``partition`` (whose
    /// identity seals a new choice's positions): a viewer session keeps them only then.
    var readsViewerHeaders: Bool { storage.pipeline.readsViewerHeaders || partition != nil }
    /// Sort and filter controls shown above the table (config tables). See ``TableControl``.
    package var controls: [TableControl] {
        get { storage.settable.controls }
        set { storage = storage.replacing { $0.controls = newValue } }
    }
    /// The free-text search box above the table (config tables; nil: none). See ``TableSearch``.
    package var search: TableSearch? {
        get { storage.settable.search }
        set { storage = storage.replacing { $0.search = newValue } }
    }
    /// Live updates of the head (nil: the table is not live). See ``LiveUpdates``.
    public var live: LiveUpdates? {
        get { storage.settable.live }
        set { storage = storage.replacing { $0.live = newValue } }
    }
    /// The config tables' normalized JSON page proxy (`/api/tables/NAME/pages`); nil: 404.
    package var upstreamPageProxy: UpstreamPageProxy? {
        get { storage.settable.upstreamPageProxy }
        set { storage = storage.replacing { $0.upstreamPageProxy = newValue } }
    }
    /// For a table whose upstream requests carry what the viewer sent (a config table's `forward`): the partition of a
    /// viewer (``ViewerPartition``). Its resume tokens and JSON proxy cursors are sealed for one identity and open for
    /// no other, its live changes are fed per identity (``LivePartitions``), and a viewer refused is answered `403` on
    /// every route of the table (docs/SECURITY.md, "Each viewer's own upstream credentials"). nil: one for all.
    package var partition: (@Sendable (Viewer) -> ViewerPartition)? {
        get { storage.settable.partition }
        set { storage = storage.replacing { $0.partition = newValue } }
    }

    /// Forgets this instance's in-memory copy of the table's first page, the one a live refresh reads, so that the
    /// next viewer's first batch is read from the cluster's shared store or the upstream (a config table's:
    /// ``PageCache/drop(_:)``; nil: the table keeps no such copy). A live feed calls it when a head another instance
    /// published arrives, before sending its changes (docs/SCALING.md, "Live tables across instances"). Must return
    /// at once without blocking; called from any task, outside the feed's lock.
    package var dropCachedHead: (@Sendable () -> Void)? {
        get { storage.settable.dropCachedHead }
        set { storage = storage.replacing { $0.dropCachedHead = newValue } }
    }

    /// The partition of `viewer`; nil for a table without partitions.
    func partition(of viewer: Viewer) -> ViewerPartition? { partition?(viewer) }
    /// Most rows of one export (`/tables/NAME/export.csv|.ndjson`, docs/PROTOCOL.md "Export"); past them the file
    /// ends with a line saying the limit stopped it. ``defaultExportMaxRows`` unless set; at least 1.
    public var exportMaxRows: Int {
        get { storage.settable.exportMaxRows }
        set { storage = storage.replacing { $0.exportMaxRows = max(1, newValue) } }
    }
    /// The default of ``exportMaxRows``.
    public static let defaultExportMaxRows = 100_000

    typealias RowLoader = @Sendable (TablePosition) async throws -> LoadResult<Row, TablePosition>
    /// A batch from memory now, with no suspension, or nil (then the ``RowLoader`` loads it): ``RowSource/batchInMemory(at:in:)``.
    typealias InMemoryRowLoader = @Sendable (TablePosition) -> LoadResult<Row, TablePosition>?
    /// One request's loaders over one walk: `load` for any batch, `inMemory` (nil: its source has none) asked first
    /// for a viewer's first batch on the event loop.
    struct RowLoaders: Sendable {
        let load: RowLoader
        let inMemory: InMemoryRowLoader?
    }
    /// One upstream page for a raw (unsealed) cursor, for a request (its viewer): its raw items and raw next cursor
    /// (nil: the last page).
    package typealias UpstreamPageProxy = @Sendable (_ cursor: String?, _ request: RowRequest) async throws
        -> (items: [JSONValue], next: String?)

    /// A table named `name` (used in URLs: letters, digits, `-` and `_`) titled `title`, with `columns`, whose
    /// items come from `source` in batches of `batchSize` (the number of skeleton rows shown while a batch loads;
    /// the loader decides how many items a batch really has), and whose rows `row` fills, one item at a time.
    /// With `layout: .grid`, items are cards (``TableLayout``). With `sections`, consecutive rows with the same `row.section` are grouped under a header (``TableSections``).
    /// `skeleton`: how the skeleton bones move (``SkeletonStyle``; nil: the page's shimmer).
    ///
    /// ```swift
    /// let binding = TableBinding(name: "fruit", title: "Fruit", columns: [TableColumn("Name")],
    ///                            source: .pages { page in page == 1 ? ["apple", "pear"] : [] }) { fruit, row in
    ///     row.text(fruit)
    /// }
    /// ```
    public init<Item: Sendable, Token: Codable & Sendable & Equatable>(
        name: String,
        title: String,
        columns: [TableColumn],
        batchSize: Int = 50,
        sections: TableSections? = nil,
        layout: TableLayout = .rows,
        skeleton: SkeletonStyle? = nil,
        source: BatchSource<Item, Token>,
        row template: @escaping @Sendable (Item, inout RowCells) -> Void
    ) {
        self.init(name: name, title: title, columns: columns, batchSize: batchSize, sections: sections, layout: layout,
                  skeleton: skeleton, rows: source, row: template)
    }

    /// A table as above whose items come from any ``RowSource`` (one of your own, given each ``RowRequest``).
    public init<Source: RowSource>(
        name: String,
        title: String,
        columns: [TableColumn],
        batchSize: Int = 50,
        sections: TableSections? = nil,
        layout: TableLayout = .rows,
        skeleton: SkeletonStyle? = nil,
        rows source: Source,
        row template: @escaping @Sendable (Source.Item, inout RowCells) -> Void
    ) {
        var spec = TableSpec(name: name, title: title, columns: columns, keyField: nil)
        spec.sections = sections?.spec
        spec.grid = layout.spec
        spec.skeleton = skeleton.flatMap { $0.isDefault ? nil : $0 }
        self.init(spec: spec, batchSize: batchSize, source: source) { item in RowCells.fill(item, with: template) }
    }

    /// A table drawn as `spec` says, whose rows `makeRow` makes, one item at a time (a code table's row template).
    package init<Source: RowSource>(
        spec: TableSpec, batchSize: Int, source: Source, makeRow: @escaping @Sendable (Source.Item) -> Row
    ) {
        self.init(spec: spec, batchSize: batchSize, source: source, makeRows: { items in items.map(makeRow) })
    }

    /// A table drawn as `spec` says, whose source loads its rows made already (a config table: its pages are read
    /// straight into rows by its ``RowMaker``).
    package init<Source: RowSource>(spec: TableSpec, batchSize: Int, source: Source) where Source.Item == Row {
        self.init(spec: spec, batchSize: batchSize, source: source, makeRows: { rows in rows })
    }

    private init<Source: RowSource>(
        spec: TableSpec, batchSize: Int, source: Source, makeRows: @escaping @Sendable ([Source.Item]) -> [Row]
    ) {
        let renderer = TableRenderer(spec: spec)
        let pipeline = RowPipeline(table: spec.name, seal: .random(), source: source, makeRows: makeRows)
        storage = Storage(spec: spec, renderer: renderer, columnsJSON: renderer.columnsJSON(), batchSize: batchSize,
                          seal: pipeline.seal, pipeline: pipeline, settable: Storage.Settable())
    }

    var name: String { spec.name }
    var title: String { spec.title }
    /// The path of the table's HTML document.
    var documentPath: String { "/tables/\(name)" }
    var streamPath: String { "/tables/\(name)/stream" }
    /// The export of the table in `format` (``ExportRoute``).
    func exportPath(_ format: ExportFormat) -> String { "/tables/\(name)/export.\(format.fileExtension)" }
    func sessionPath(_ session: String, _ action: String) -> String { "/tables/\(name)/sessions/\(session)/\(action)" }

    /// The seal scope of positions in this table's resume tokens (`id:` of events, `Last-Event-ID`, `?after=`); of a
    /// partitioned table, for `viewer`.
    func resumeScope(for viewer: Viewer) -> String {
        let own = viewerScope(viewer)
        return own.isEmpty ? storage.resumeScope : storage.resumeScope + own
    }
    /// The resume scope of table `name` (of a partitioned table, before the viewer's part).
    static func resumeScope(_ name: String) -> String { "resume:\(name)" }
    /// The seal scope of this table's JSON proxy cursors (`/api/tables/NAME/pages?cursor=`); of a partitioned
    /// table, for `viewer`.
    func proxyScope(for viewer: Viewer) -> String { "proxy:\(name)" + viewerScope(viewer) }
    /// The viewer's part of a partitioned table's scopes: its identity (a keyed hash). A scope is authenticated by the
    /// seal, never written into the token. A refused viewer's scope opens nothing anyone was given (its loads fail).
    private func viewerScope(_ viewer: Viewer) -> String {
        switch partition(of: viewer) {
        case nil: ""
        case .identity(let identity)?: "\0viewer:" + identity
        case .refused?: "\0refused"
        }
    }

    /// True if `sealed` is a resume-token position sealed for this table (and of a partitioned table, for `viewer`)
    /// with one of the server's keys. Costs a seal's `open` (microseconds, input capped): call it off the event loops.
    func isValid(_ sealed: String, for viewer: Viewer) -> Bool { seal.open(sealed, scope: resumeScope(for: viewer)) != nil }

    /// The table's entry in `GET /api/tables`.
    func listing() -> JSONValue {
        var entry: [String: JSONValue] = [
            "name": .string(name),
            "title": .string(title),
            "columns": columnsJSON,
            "batchSize": .int(Int64(batchSize)),
            "page": .string(documentPath),
            "stream": .string(streamPath),
        ]
        if let sections = sectionsJSON { entry["sections"] = sections }
        if let live = liveJSON { entry["live"] = live }
        if spec.grid != nil { entry["layout"] = "grid" }
        if !controls.isEmpty { entry["controls"] = .array(controls.map(\.json)) }
        if let search { entry["search"] = search.json }
        if upstreamPageProxy != nil { entry["pages"] = .string("/api/tables/\(name)/pages") }
        entry["export"] = .object(Dictionary(uniqueKeysWithValues: ExportFormat.allCases.map {
            ($0.rawValue, JSONValue.string(exportPath($0)))
        }))
        return .object(entry)
    }

    /// `{"footer": "none|count|sum", "label": ...}` for a sectioned table (`session` event, `/api/tables`).
    var sectionsJSON: JSONValue? {
        guard let sections = spec.sections else { return nil }
        return ["footer": .string(sections.footer.name), "label": .string(sections.footerLabel)]
    }

    /// `{"interval": MS or null, "refresh": URL}` for a live table (`session` event, `/api/tables`).
    var liveJSON: JSONValue? {
        guard let live else { return nil }
        let interval = live.interval.map { JSONValue.int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
        return ["interval": interval ?? .null, "refresh": .string("/tables/\(name)/refresh")]
    }
}


extension TableBinding {
    /// Loads one batch outside any viewer's session (the no-script page, row refetch, a live refresh), with a
    /// loader of its own for `request`. Every error comes back as the `LoadFailure` a viewer would see.
    func loadBatch(at position: TablePosition, for request: RowRequest = RowRequest()) async throws(LoadFailure)
        -> (rows: [Row], next: TablePosition?)
    {
        do {
            switch try await loader(for: request)(position) {
            case .items(let rows, let next): return (rows, next)
            case .completed(let rows): return (rows, nil)
            }
        } catch {
            throw LoadFailure(error)
        }
    }
}
