import Testing
@testable import Tables

/// ``TableStyleSheet``: the widths and card sizes that used to be inline `style` attributes.
@Suite struct TableStyleSheetTests {
    @Test func validWidthsBecomeRulesOfTheirColumn() {
        let css = TableStyleSheet.css([RendererTests.spec])
        #expect(css.contains("table.rs-table[data-table=\"repos\"]>colgroup>col:nth-child(2){width:6rem}\n"))
        #expect(css.contains("table.rs-table[data-table=\"repos\"]>colgroup>col:nth-child(4){width:20%}\n"))
        #expect(css.contains("table.rs-table[data-table=\"repos\"]>colgroup>col:nth-child(5){width:8.5ch}\n"))
        #expect(!css.contains("12 rem"), "an invalid width is never written")
        #expect(!css.contains("nth-child(1)"), "no width: no rule")
        #expect(!css.contains("--rs-card-fields"), "not a grid")
    }

    @Test func namesCannotEndTheStringOrTheRule() {
        #expect(TableStyleSheet.escaped("a\"b\\c</style>{}\u{0}é") == "a\\22 b\\5c c\\3c /style\\3e {}\\fffd \\e9 ")
        var spec = RendererTests.spec
        spec.name = "x\"]{}*{color:red}"
        let css = TableStyleSheet.css([spec])
        #expect(css.contains("[data-table=\"x\\22 ]{}*{color:red}\"]"))
        #expect(!css.contains("x\"]"))
    }
}
