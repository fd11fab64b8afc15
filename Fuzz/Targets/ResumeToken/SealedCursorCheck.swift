// Part of FuzzResumeToken: the sealed cursor inside a resume token (and any raw text, as the JSON proxy's
// `?cursor=` gets it) opened with a fixed key, as the server does with its own.
#if DEBUG
import Sealing

/// The fuzz target's seal: a fixed key, so seed files can hold genuine sealed cursors (Fuzz/corpus/FuzzResumeToken).
let fuzzSeal = CursorSeal(key: Array(repeating: 0x5A, count: 32))

/// For any text: `open` never traps, refuses text over its cap unread, and opens only genuine seals, which are
/// canonical (sealing what it opened gives the same text back) and bound to their scope.
func checkSealedCursor(_ text: String) {
    for (scope, other) in [("resume:customers", "proxy:customers"), ("proxy:customers", "resume:customers")] {
        guard let opened = fuzzSeal.open(text, scope: scope) else { continue }
        precondition(text.utf8.count <= CursorSeal.maxSealedLength, "an oversized seal was opened")
        precondition(fuzzSeal.seal(opened, scope: scope) == text, "a seal opened that this key would not write")
        precondition(fuzzSeal.open(text, scope: other) == nil, "a seal opened in another scope")
    }
}
#endif
