import HTTPServer
import Tables

/// `GET /tables/{name}/export.csv` and `/export.ndjson`: the table's rows as a file (``TableExport``), streamed as
/// the walk goes, with the viewer's control choice (`?p.sort=`, whitelisted by the caller) applied. Answered only
/// past the access layer like every route of a table, for the route's ``RowRequest``: a table that forwards the
/// viewer exports that viewer's own rows.
///
/// Thread-safe: an immutable value. The walk runs in a task the stream's close cancels.
struct ExportRoute: Sendable {
    let table: TableBinding
    let format: ExportFormat
    let query: LoaderUse.Query
    /// Who asked (the viewer; the use is replaced by the walk with `query`).
    let request: RowRequest

    func response() -> HTTPResponse {
        let headers: HTTPHeaders = [
            HTTPFieldName.contentType: format.contentType,
            HTTPFieldName.contentDisposition: "attachment; filename=\"\(Self.fileName(table.name, format))\"",
            HTTPFieldName.cacheControl: "no-store",
            HTTPFieldName.xAccelBuffering: "no",
        ]
        let export = TableExport(table: table, format: format)
        let load = table.loader(for: request.using(.viewer(query: query)))
        return HTTPResponse(status: .ok, headers: headers, body: .stream { writer in
            let task = Task {
                _ = await export.run(load) { bytes in
                    writer.write(bytes)
                    await writer.waitForRoom()
                    return writer.isOpen
                }
                writer.finish()
            }
            writer.onClose { task.cancel() }
        })
    }

    /// `NAME.EXT` with every byte but ASCII letters, digits, `-` and `_` replaced by `_`: safe in a quoted
    /// `filename=` and on every file system.
    static func fileName(_ name: String, _ format: ExportFormat) -> String {
        let safe = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                               || scalar == "_") ? Character(scalar) : "_"
        }
        return (safe.isEmpty ? "table" : String(safe)) + "." + format.fileExtension
    }
}
