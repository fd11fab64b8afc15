import JSON
import Testing
@testable import Tables

@Suite struct TableSpecJSONTests {
    @Test func readsAFullSpec() throws {
        let json = try JSONValue.parse(#"""
        {"name": "repos", "title": "Repositories", "keyField": "node.id",
         "columns": [{"title": "Name", "field": "name"},
                     {"title": "Home", "field": "[\"html_url\"]", "format": "link", "width": "12rem",
                      "labelField": "full_name"}]}
        """#)
        let spec = try TableSpec(json: json)
        #expect(spec.name == "repos")
        #expect(spec.title == "Repositories")
        #expect(spec.keyField == Support.path("node.id"))
        #expect(spec.columns == [
            Column(title: "Name", field: Support.path("name")),
            Column(title: "Home", field: Support.path("html_url"), format: .link, width: "12rem",
                   labelField: Support.path("full_name")),
        ])
    }

    @Test func defaults() throws {
        let spec = try TableSpec(json: ["name": "t", "columns": [["field": "a.b"]]])
        #expect(spec.title == "t")
        #expect(spec.keyField == Support.path("id"))
        #expect(spec.columns.first?.format == .text)
        #expect(spec.columns.first?.title == "a.b")
    }

    @Test(arguments: [
        (JSONValue.object(["columns": [["field": "a"]]]), "name"),
        (["name": "t"], "columns"),
        (["name": "t", "columns": []], "columns"),
        (["name": "t", "columns": [["title": "x"]]], "columns[0].field"),
        (["name": "t", "columns": [["field": "a", "format": "html"]]], "columns[0].format"),
        (["name": "t", "columns": [["field": "a", "width": "1px;x"]]], "columns[0].width"),
        (["name": "t", "columns": [["field": "a..b"]]], "columns[0].field"),
        (["name": "t", "columns": [["field": "a", "labelField": "["]]], "columns[0].labelField"),
        (["name": "t", "keyField": "a[", "columns": [["field": "a"]]], "keyField"),
    ] as [(JSONValue, String)])
    func rejectsBadConfig(json: JSONValue, location: String) {
        do {
            _ = try TableSpec(json: json)
            Issue.record("expected an error at \(location)")
        } catch {
            #expect(error.location == location)
        }
    }
}
