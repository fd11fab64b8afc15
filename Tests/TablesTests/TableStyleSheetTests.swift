import Testing
@testable import Tables

/// ``TableStyleSheet``: the widths and card sizes that used to be inline `style` attributes.
@Suite struct TableStyleSheetTests {
    @Test func validWidthsBecomeRulesOfTheirColumnNeverNarrowerThanTheHeader() {
        let css = TableStyleSheet.css([RendererTests.spec])
        let table = "table.rs-table[data-table=\"repos\"]"
        #expect(css.contains("\(table)>colgroup>col:nth-child(2){width:max(6rem,5.9rem)}\n"))   // STARS
        #expect(css.contains("\(table)>colgroup>col:nth-child(4){width:max(20%,5.02rem)}\n"))   // HOME
        #expect(css.contains("\(table)>colgroup>col:nth-child(5){width:max(8.5ch,5.9rem)}\n"))  // STATE
        #expect(!css.contains("12 rem"), "an invalid width is never written")
        #expect(!css.contains("nth-child(1)"), "no width: no rule")
        #expect(!css.contains("nth-child(3)"), "an invalid width: no rule")
        #expect(!css.contains("--rs-card-fields"), "not a grid")
        // Name and Updated take the free space, each at least the default minimum or its header, whichever is wider.
        #expect(css.contains("\(table){min-width:calc(max(6rem,5.9rem) + max(20%,5.02rem) + max(8.5ch,5.9rem) + "
                             + "2*max(max(8rem,5.02rem),max(8rem,7.66rem)))}\n"))
    }

    @Test func aSetMinimumOverridesTheDefault() {
        var spec = RendererTests.spec
        spec.columns = [Column(title: "Name", field: Support.path("name"), minWidth: "12rem"),
                        Column(title: "N", field: Support.path("n"), format: .number, width: "2rem", minWidth: "3rem")]
        let css = TableStyleSheet.css([spec])
        #expect(css.contains(">colgroup>col:nth-child(2){width:max(2rem,max(3rem,2.38rem))}\n"))
        #expect(css.contains("{min-width:calc(max(2rem,max(3rem,2.38rem)) + max(12rem,5.02rem))}\n"))
    }

    @Test(arguments: [("ID", "3.26rem"), ("Seats", "5.9rem"), ("MRR ($)", "7.14rem"), ("株式会社", "5.82rem"),
                      ("🚀", "2.58rem"), ("e\u{301}", "2.38rem"), ("", "1.5rem")])
    func headerWidthIsAnUpperBoundPerCharacter(title: String, rem: String) {
        #expect(TableStyleSheet.headerWidth(title) == rem)
    }

    @Test func aCardShowsItsTitleOnce() {
        var spec = RendererTests.spec
        spec.grid = GridSpec(titleField: Support.path("name"))
        let css = TableStyleSheet.css([spec])
        let table = "table.rs-table[data-table=\"repos\"]"
        #expect(css.contains("\(table){--rs-card-fields:4}\n"), "five columns, one of them the title")
        #expect(css.contains("\(table) tr.rs-card>td:nth-child(3){display:none}\n"), "image, title, then Name")
        #expect(!css.contains("min-width"), "cards have no columns to keep wide")
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
