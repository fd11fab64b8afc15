import JSON

/// The list one demo upstream request sees: the demo data, in live mode with new customers on top and some
/// records changing as time goes on, optionally filtered by `status` and by a text in the name (`q`), and sorted by `sort`.
///
/// Live mode (`--demo-live-seconds N`): at generation `g` (N seconds each since start) the list starts with the
/// `g` newest customers (ids `count + g` down to `count + 1`, at most 1,000), and every record whose index is
/// `g` modulo 3 among the first 60 has `g` more seats. Without live mode, sort or filter it is the plain data.
///
/// Immutable and `Sendable`: a value built per request.
struct DemoView: Sendable {
    let data: DemoData
    let generation: Int
    let sort: String?
    let status: String?
    /// Only records whose name contains this text, ignoring case (`?q=`, the demo table's search).
    var name: String? = nil

    /// Sort keys the demo upstream understands (`?sort=`); a leading `-` sorts descending.
    static let sortKeys: Set<String> = ["id", "name", "city", "status", "plan", "seats", "mrr", "created_at"]

    static func isValidSort(_ sort: String) -> Bool {
        sortKeys.contains(sort.hasPrefix("-") ? String(sort.dropFirst()) : sort)
    }

    /// True when the plain data (with cheap paging) is the answer.
    var isPlain: Bool { generation == 0 && sort == nil && status == nil && name == nil }

    /// Every item of this view, in order.
    func items() -> [JSONValue] {
        let newest = min(generation, 1_000)
        var items = (0..<newest).map { data.item(at: data.count + newest - 1 - $0) }
        items += (0..<data.count).map { index in changed(data.item(at: index), index: index) }
        if let status { items = items.filter { $0["status"]?.stringValue == status } }
        if let name {
            let wanted = name.lowercased()
            items = items.filter { ($0["name"]?.stringValue ?? "").lowercased().contains(wanted) }
        }
        if let sort { items = sorted(items, by: sort) }
        return items
    }

    private func changed(_ item: JSONValue, index: Int) -> JSONValue {
        guard generation > 0, index < 60, index % 3 == generation % 3, case .object(var members) = item,
              case .int(let seats)? = members["seats"] else { return item }
        members["seats"] = .int(seats + Int64(generation))
        if case .array(var weeks)? = members["seats_trend"], !weeks.isEmpty {   // the trend ends at the seats
            weeks[weeks.count - 1] = .int(seats + Int64(generation))
            members["seats_trend"] = .array(weeks)
        }
        return .object(members)
    }

    private func sorted(_ items: [JSONValue], by sort: String) -> [JSONValue] {
        let descending = sort.hasPrefix("-")
        let key = descending ? String(sort.dropFirst()) : sort
        // Stable: ties keep the list order (then by id), so pages never shuffle between requests.
        return items.enumerated().sorted { a, b in
            let order = Self.compare(a.element[key], b.element[key])
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// -1, 0 or 1: numbers by value, anything else by its display text.
    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        if let x = a?.doubleValue, let y = b?.doubleValue { return x < y ? -1 : (x > y ? 1 : 0) }
        let x = a?.displayText ?? "", y = b?.displayText ?? ""
        return x < y ? -1 : (x > y ? 1 : 0)
    }
}
