import Access
import JSON
import Sealing
import Tables

extension TableBinding {
    /// What a ``TableBinding`` holds, boxed so that copies share it (a viewer's session and its events each keep
    /// the binding: one pointer each instead of a few hundred bytes).
    ///
    /// Thread-safe: immutable. Setting a binding's `controls`, `live`, `upstreamPageProxy`, `partition` or `dropCachedHead`
    /// makes a new box.
    final class Storage: Sendable {
        /// The parts set after creation (at start-up, before serving).
        struct Settable: Sendable {
            var controls: [TableControl] = []
            var search: TableSearch?
            var live: LiveUpdates?
            var upstreamPageProxy: UpstreamPageProxy?
            var partition: (@Sendable (Viewer) -> ViewerPartition)?
            var exportMaxRows = TableBinding.defaultExportMaxRows
            var dropCachedHead: (@Sendable () -> Void)?
        }

        let spec: TableSpec
        let renderer: TableRenderer
        /// `renderer` with bare cells (``CellMarkup``), made once.
        let bareRenderer: TableRenderer
        /// Whether its rows can open their cells bare: not cards (``TableRenderer/withCells(_:)``).
        let takesBareCells: Bool
        let columnsJSON: JSONValue
        let batchSize: Int
        let seal: SealingKeys
        /// The table's ``RowPipeline`` (its ``RowSource`` inside), sealing with `seal`.
        let pipeline: any RowLoading
        let settable: Settable
        /// The `rows` events many viewers get at the same place, rendered once (``SharedBatchBodies``).
        let sharedBatches = SharedBatchBodies()
        /// The same, of streams that asked for bare cells.
        let sharedBareBatches = SharedBatchBodies()
        /// The `session` event without its id, made once (``SessionEventTemplate``).
        let sessionEvents = SessionEventTemplate()
        /// ``TableBinding/resumeScope(_:)`` of the table, made once (not per arrival).
        let resumeScope: String

        init(spec: TableSpec, renderer: TableRenderer, columnsJSON: JSONValue, batchSize: Int, seal: SealingKeys,
             pipeline: any RowLoading, settable: Settable) {
            self.spec = spec
            self.renderer = renderer
            bareRenderer = renderer.withCells(.bare)
            takesBareCells = spec.grid == nil
            self.columnsJSON = columnsJSON
            self.batchSize = batchSize
            self.seal = seal
            self.pipeline = pipeline
            self.settable = settable
            resumeScope = TableBinding.resumeScope(spec.name)
        }

        /// A new box whose tokens are sealed with `keys`.
        func sealing(with keys: SealingKeys) -> Storage {
            Storage(spec: spec, renderer: renderer, columnsJSON: columnsJSON, batchSize: batchSize, seal: keys,
                    pipeline: pipeline.sealing(with: keys), settable: settable)
        }

        /// A new box with the settable parts changed by `change`.
        func replacing(_ change: (inout Settable) -> Void) -> Storage {
            var settable = self.settable
            change(&settable)
            return Storage(spec: spec, renderer: renderer, columnsJSON: columnsJSON, batchSize: batchSize, seal: seal,
                           pipeline: pipeline, settable: settable)
        }
    }
}
