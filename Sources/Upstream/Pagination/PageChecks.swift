import JSON

/// What a page must look like to count as a success, beyond a 2xx status and a JSON body.
///
/// A plain value: thread-safe.
public struct PageChecks: Sendable {
    /// When set, the value here must be `true` (e.g. Slack's `ok`); anything else is an upstream error.
    public var okPath: JSONPath? = nil
    /// When set and the value here is present and not `null` or `false`, the page is an upstream error
    /// (e.g. `error`, `errors[0].message`); its text (shortened) becomes the message.
    public var errorPath: JSONPath? = nil
    /// A boolean "has more" flag (`has_more`, `meta.hasNextPage`). When set, it alone decides whether
    /// another page follows: `false` ends the list even if a cursor is present.
    public var hasMorePath: JSONPath? = nil
    /// Where the body reports how many items the whole list holds (DRF's `count`, Datasette's
    /// `filtered_table_rows_count`): read into ``UpstreamPage/total``, never used to end the list. An offset or
    /// page-number style's `total` end is read there too when this is nil. A value that is not a whole number from 0
    /// up is no total (the page is not failed for it).
    public var totalPath: JSONPath? = nil
    /// Removes secrets from the upstream's error text (at `errorPath`) before it is shortened and shown, should
    /// the upstream echo a credential back (``SecretRedactor``).
    public var redactor: SecretRedactor = .none

    /// No checks beyond status and JSON.
    public init() {}
}
