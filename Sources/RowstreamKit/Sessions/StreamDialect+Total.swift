import HTTPServer
import Tables

extension StreamDialect {
    /// The list's total (issue 28, "150 of 2,500": the v1 `total` event, docs/PROTOCOL.md) in the dialect's form,
    /// sent before the rows of the batch that reported it, and again only when it changes or after a `reset`. The
    /// number is written in plain digits. A page with no place for it is left as it is, and no library logs an error:
    /// - htmx: an event named `total` (swapped only where a page lists it in an `sse-swap`) whose data is
    ///   `<span id="rs-T-total" hx-swap-oob="true">N</span>`, out of band into the element with that id.
    /// - Turbo: `<turbo-stream action="update" target="rs-T-total">` with `N` (no such element: nothing to update).
    /// - Datastar: `datastar-patch-signals` setting the signal `rs_T_total` to `N` (a page shows it with
    ///   `data-text="$rs_T_total"`), where `T` is the table's name escaped as in ids: letters, digits and `_HH`.
    func total(table: String, total: Int) -> FramedSSEEvent {
        let id = RowElementID.total(table: table)
        switch self {
        case .htmx:
            return FramedSSEEvent(event: "total", id: nil) { data in
                data += Self.oob("<span id=\"\(id)\">\(total)</span>", "true")
            }
        case .turbo:
            return FramedSSEEvent(event: nil, id: nil) { data in
                data += Self.turboStream("update", id, String(total))
            }
        case .datastar:
            return FramedSSEEvent(event: "datastar-patch-signals", id: nil) { data in
                data += Array("signals {\"\(Self.totalSignal(table: table))\":\(total)}".utf8)
            }
        }
    }

    /// The Datastar signal that holds `table`'s total: `rs_`, the name escaped as in element ids, `_total`.
    static func totalSignal(table: String) -> String { "rs_" + RowElementID.escaped(table) + "_total" }
}
