// libFuzzer target: resume-token decoding (the browser's Last-Event-ID), see Scripts/fuzz. `ResumeToken` is
// package-internal to RowstreamKit and this target uses Dashboard's internals, so it needs a testable (debug)
// build, which is what Scripts/fuzz makes; in a release build the target compiles to a no-op.
#if DEBUG
@testable import Dashboard
import RowstreamKit

/// For any input: decoding returns a token or nil (never traps); a decoded token belongs to the asked table,
/// has a non-negative offset, and re-encodes to a token that decodes to the same value; its sealed cursor, and the
/// input as a raw sealed cursor, pass `checkSealedCursor`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Both raw text and text wrapped as a real token prefix, so the fuzzer reaches the JSON inside quickly.
    checkSealedCursor(text)
    for candidate in [text, "v1." + text] {
        guard let token = ResumeToken(decoding: candidate, table: "customers") else { continue }
        precondition(token.table == "customers" && token.offset >= 0)
        precondition(ResumeToken(decoding: token.encoded(), table: "customers") == token, "re-encoding changed it")
        precondition(ResumeToken(decoding: token.encoded(), table: "other") == nil, "token accepted for another table")
        if case .after(let cursor) = token.position { checkSealedCursor(cursor) }
    }
    return 0
}
#else
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { 0 }
#endif
