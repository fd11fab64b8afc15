import RowstreamKit
import Testing

/// ``RowTotal``'s public surface as library code used it before a request's total moved into the request's shared box
/// (issue 27, idle memory): `RowTotal()` still makes a total, whose copies share what is reported. A plain import: only
/// what a package depending on Rowstream sees.
@Suite struct RowTotalAPITests {
    @Test("RowTotal() makes a total of its own; its copies share what is reported, a request's is apart")
    func standaloneTotal() {
        let total = RowTotal()
        let copy = total
        #expect(total.latest == nil)
        copy.report(2_500)
        copy.report(-1)
        #expect(total.latest == 2_500)
        #expect(RowTotal().latest == nil && RowRequest().total.latest == nil)
    }
}
