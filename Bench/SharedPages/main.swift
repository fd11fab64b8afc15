// Shared-page benchmark for Scripts/bench: what binding a Redis value to its key (issue 26: an HMAC-SHA-256 tag under
// the operator's store key, SharedPageKeys.sealed/opened) adds to an instance's shared-page path, on one core. The
// path without Redis's round trip: a page read from the store (decoded, its items read as JSON) and a fetched page
// written to it (encoded), each without the tag (as before) and with it, alternating in one process: 7 rounds,
// medians printed as JSON, for a page of 50 items of about 300 bytes (15 KB) and one near the 1 MiB value cap.
// Usage: rowstream-bench-shared [--rounds N]
import Dispatch
import Foundation
import JSON
import Sealing
import Upstream

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let number = Int(arguments[index + 1]), number > 0 else { return value }
    return number
}

/// A page of `count` items of about 300 bytes each, like an API's list of records.
func page(items count: Int) -> UpstreamPage<JSONValue> {
    let items: [JSONValue] = (0..<count).map { index in
        ["id": .int(Int64(index)), "name": .string("Customer \(index) with a longer name"), "email": .string("c\(index)@example.com"),
         "city": "Lisbon", "balance": .double(Double(index) * 12.5), "active": .bool(index % 2 == 0),
         "notes": .string(String(repeating: "note ", count: 30)), "tags": ["a", "b", "c"]]
    }
    return UpstreamPage(items: items, nextCursor: "https://api.example/v1/customers?cursor=\(count)&token=s3cret")
}

/// Microseconds per call of `body`, over `steps` calls.
func microseconds(_ steps: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<steps { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(steps) / 1_000
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let rounds = option("--rounds", default: 7)
let keys = SharedPageKeys(table: "customers", scope: Array("GET\0https://api.example/v1/customers\0".utf8),
                          storeKey: StoreKey.random())
let key = keys.page(nil)
var result: [String: Double] = [:]
for (name, items, steps) in [("15k", 50, 2_000), ("1m", 3_300, 30)] {
    let value = SharedPageCodec.encode(page(items: items), fetchedAt: 1)
    let stored = keys.sealed(value, at: key)
    var read: [Double] = [], readBound: [Double] = [], write: [Double] = [], writeBound: [Double] = []
    var sink = 0
    let plainRead = { sink &+= SharedPageCodec.decode(value, maxBytes: 1 << 21, reader: .json)?.page.items.count ?? 0 }
    let boundRead = {
        guard let opened = keys.opened(stored, at: key) else { fatalError("the bound value did not open") }
        sink &+= SharedPageCodec.decode(opened, maxBytes: 1 << 21, reader: .json)?.page.items.count ?? 0
    }
    let source = page(items: items)
    let plainWrite = { sink &+= SharedPageCodec.encode(source, fetchedAt: 2).count }
    let boundWrite = { sink &+= keys.sealed(SharedPageCodec.encode(source, fetchedAt: 2), at: key).count }
    for round in 0..<rounds {
        // Alternate which goes first, so drift in the machine's speed favours neither.
        if round % 2 == 0 {
            read.append(microseconds(steps, plainRead)); readBound.append(microseconds(steps, boundRead))
            write.append(microseconds(steps, plainWrite)); writeBound.append(microseconds(steps, boundWrite))
        } else {
            readBound.append(microseconds(steps, boundRead)); read.append(microseconds(steps, plainRead))
            writeBound.append(microseconds(steps, boundWrite)); write.append(microseconds(steps, plainWrite))
        }
    }
    precondition(sink > 0)
    result["\(name)_bytes"] = Double(value.count)
    result["\(name)_read_us"] = median(read)
    result["\(name)_read_bound_us"] = median(readBound)
    result["\(name)_read_ratio"] = median(zip(readBound, read).map { $0 / $1 })
    result["\(name)_write_us"] = median(write)
    result["\(name)_write_bound_us"] = median(writeBound)
    result["\(name)_write_ratio"] = median(zip(writeBound, write).map { $0 / $1 })
}
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
