import JSON

/// What a row's detail view (the page's detail.js: a click or Enter on a row) shows besides the row's columns: fields
/// of the item that are not columns, and the upstream's own URL for the item. Each row of a table with a detail spec
/// carries them, rendered server-side and escaped, in a `<template class="rs-more">` at the end of its `<tr>`
/// (``TableRenderer/appendDetail(_:to:)``); a table without one renders rows exactly as before (no extra bytes).
///
/// Config: `"detail": {"fields": [{"path": "owner.login", "label": "Owner"}], "link": "html_url",
/// "linkLabel": "Open on GitHub"}` (docs/CONFIG.md "Row detail").
///
/// Thread-safe: a value type, `Sendable`.
public struct DetailSpec: Sendable, Hashable {
    /// One field of the detail view that is not a column.
    public struct Field: Sendable, Hashable {
        /// Its label in the detail view (escaped when rendered).
        public var label: String
        /// Where its value lives in each upstream item.
        public var path: JSONPath
        /// How its value renders (as a column's cell would).
        public var format: ColumnFormat

        public init(label: String, path: JSONPath, format: ColumnFormat = .text) {
            self.label = label
            self.path = path
            self.format = format
        }
    }

    /// The fields, in the order shown (after the columns).
    public var fields: [Field]
    /// Where each item's own URL upstream lives (shown as a link only when it is http(s)); nil: none.
    public var link: JSONPath?
    /// The link's text.
    public var linkLabel: String

    /// The most fields a detail spec may have.
    public static let maximumFields = 50
    /// The link's text when none is configured.
    public static let defaultLinkLabel = "Open the original"

    public init(fields: [Field] = [], link: JSONPath? = nil, linkLabel: String = DetailSpec.defaultLinkLabel) {
        self.fields = fields
        self.link = link
        self.linkLabel = linkLabel
    }
}
