import Dashboard
import Tables
import Testing

/// The `skeleton` object of the config file and of a table (issue 28, part 7): a table's own options over the file's.
@Suite struct ConfigSkeletonTests {
    static func config(top: String = "", table: String = "") -> String {
        """
        {\(top.isEmpty ? "" : #""skeleton": "# + top + ", ")"tables": [
          {"name": "a", "request": {"url": "https://api.example.com/a"}, "items": "data",
           "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "next-url", "nextPath": "next"}\(table.isEmpty ? "" : #", "skeleton": "# + table)},
          {"name": "b", "request": {"url": "https://api.example.com/b"}, "items": "data",
           "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "next-url", "nextPath": "next"}}]}
        """
    }

    @Test func aTablesOwnOptionsOverTheFiles() throws {
        let config = try ConfigFileTests.parse(Self.config(top: #"{"speed": 2.5, "direction": "top-to-bottom"}"#,
                                                           table: #"{"animation": "pulse", "speed": 0.8}"#))
        #expect(config.tables[0].spec.skeleton == SkeletonStyle(animation: .pulse, speed: 0.8, direction: .topToBottom))
        #expect(config.tables[1].spec.skeleton == SkeletonStyle(speed: 2.5, direction: .topToBottom))
    }

    @Test func noSkeletonObjectLeavesThePagesDefault() throws {
        let config = try ConfigFileTests.parse(Self.config(table: "{}"))
        #expect(config.tables.allSatisfy { $0.spec.skeleton == nil })
    }

    @Test(arguments: [
        (#"{"animation": "wave"}"#, "", "test.json: tables[0].skeleton.animation: one of shimmer, pulse, none"),
        (#"{"speed": 0}"#, "", "test.json: tables[0].skeleton.speed: a number of seconds per sweep in 0.2...20.0"),
        (#"{"speed": "2s"}"#, "", "test.json: tables[0].skeleton.speed: a number of seconds"),
        (#"{"direction": "up"}"#, "", "test.json: tables[0].skeleton.direction: one of left-to-right, right-to-left, "
            + "top-to-bottom, bottom-to-top, top-left-to-bottom-right, bottom-right-to-top-left"),
        (#"{"animation": "pulse", "direction": "right-to-left"}"#, "",
         #"test.json: tables[0].skeleton.direction: only with "animation": "shimmer""#),
        (#"{"colour": "red"}"#, "", "test.json: tables[0].skeleton.colour: unknown key"),
        ("", #"{"speed": 99}"#, "test.json: skeleton.speed: a number of seconds"),
        ("", #""pulse""#, "test.json: skeleton: an object"),
    ])
    func invalid(table: String, top: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(Self.config(top: top, table: table)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
