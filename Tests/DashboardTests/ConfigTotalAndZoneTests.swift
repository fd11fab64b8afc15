import Dashboard
import Testing
import Upstream

/// Issue 28's config keys: `pagination.total` (where the upstream reports the list's size), `timeZone` and
/// `locale` of a table or of the whole config, each validated with an error naming the key.
@Suite struct ConfigTotalAndZoneTests {
    static func config(pagination: String = #"{"style": "cursor", "cursorPath": "next"}"#, table: String = "",
                       root: String = "") -> String {
        """
        {\(root)"tables": [{"name": "items", "request": {"url": "https://api.example.com/v1/items"}, "items": "data",
          "columns": [{"title": "ID", "path": "id"}], "pagination": \(pagination)\(table)},
          {"name": "other", "request": {"url": "https://api.example.com/v1/other"}, "items": "data",
          "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "link-header"}}]}
        """
    }

    @Test func paginationTotalIsThePagesTotalPath() throws {
        let config = try ConfigFileTests.parse(Self.config(pagination: #"{"style": "next-url", "nextPath": "next", "total": "count"}"#))
        #expect(config.tables[0].checks.totalPath?.description == "count")
        #expect(config.tables[1].checks.totalPath == nil)
    }

    @Test func aTablesZoneAndLocaleWinOverTheConfigsDefault() throws {
        let config = try ConfigFileTests.parse(Self.config(table: #", "timeZone": "Asia/Tokyo", "locale": "de-CH""#,
                                                           root: #""timeZone": "Europe/Berlin", "locale": "viewer", "#))
        #expect(config.tables[0].spec.viewerFormats.timeZone == "Asia/Tokyo")
        #expect(config.tables[0].spec.viewerFormats.locale == "de-CH")
        #expect(config.tables[1].spec.viewerFormats.timeZone == "Europe/Berlin")
        #expect(config.tables[1].spec.viewerFormats.locale == "viewer")
        let plain = try ConfigFileTests.parse(Self.config())
        #expect(plain.tables[0].spec.viewerFormats.timeZone == nil && plain.tables[0].spec.viewerFormats.locale == nil)
        #expect(try ConfigFileTests.parse(Self.config(table: #", "timeZone": "UTC""#)).tables[0].spec.viewerFormats.timeZone == "UTC")
    }

    @Test(arguments: [
        (config(pagination: #"{"style": "cursor", "cursorPath": "next", "total": "data[].n"}"#),
         "test.json: tables[0].pagination.total: the JSON path of one number"),
        (config(pagination: #"{"style": "cursor", "cursorPath": "next", "total": 5}"#), "test.json: tables[0].pagination.total: "),
        (config(table: #", "timeZone": "Mars/Olympus""#), "test.json: tables[0].timeZone: an IANA time zone name"),
        (config(table: #", "timeZone": "JST""#), "test.json: tables[0].timeZone: an IANA time zone name"),
        (config(table: #", "timeZone": "<script>""#), "test.json: tables[0].timeZone: an IANA time zone name"),
        (config(root: #""timeZone": "Nowhere/Town", "#), "test.json: timeZone: an IANA time zone name"),
        (config(table: #", "locale": "de_CH""#), "test.json: tables[0].locale: viewer (the browser's locale) or a BCP 47"),
        (config(table: #", "locale": "x""#), "test.json: tables[0].locale: viewer"),
        (config(root: #""locale": "\"><b>", "#), "test.json: locale: viewer"),
    ])
    func invalidValuesNameTheKey(text: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(text) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
