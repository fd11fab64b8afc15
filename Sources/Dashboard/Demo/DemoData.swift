import JSON

/// The built-in demo data set: a deterministic list of customer records with varied fields.
///
/// Item `i` is a pure function of `i` (a SplitMix64 stream seeded by the index), so every run, every test and
/// every viewer sees the same data without storing it. A few records carry hostile or unusual text on purpose
/// (markup, quotes, `javascript:` links, CJK, emoji) so the default run shows that everything is escaped.
///
/// Immutable and `Sendable`: safe from any thread.
public struct DemoData: Sendable {
    /// Number of records in the list.
    public let count: Int

    public init(count: Int = 2_500) {
        precondition(count >= 0, "DemoData count must not be negative")
        self.count = count
    }

    /// The record at `index` (0-based); its `id` is `index + 1`.
    public func item(at index: Int) -> JSONValue {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9 &+ 17)
        let first = Self.firstNames[random.next(below: Self.firstNames.count)]
        let last = Self.lastNames[random.next(below: Self.lastNames.count)]
        let name = Self.specialNames[index] ?? "\(first) \(last)"
        let slug = "\(first).\(last)".lowercased()
        let day = 1 + random.next(below: 28)
        let month = 1 + random.next(below: 12)
        let year = 2019 + random.next(below: 7)
        let hour = random.next(below: 24)
        let minute = random.next(below: 60)
        let created = "\(year)-\(Self.twoDigits(month))-\(Self.twoDigits(day))T\(Self.twoDigits(hour)):\(Self.twoDigits(minute)):00Z"
        let cents = random.next(below: 250_000_00)
        let website = Self.specialWebsites[index] ?? "https://example.com/customers/\(index + 1)"
        // Drawn in the order the fields always were, so every record keeps its values.
        let city = Self.cities[random.next(below: Self.cities.count)]
        let status = Self.statuses[random.next(below: Self.statuses.count)]
        let plan = Self.plans[random.next(below: Self.plans.count)]
        let seatsDraw = random.next(below: 5_000)
        return .object([
            "id": .int(Int64(index + 1)),
            "name": .string(name),
            "email": .string("\(slug)@example.com"),
            "city": .string(city),
            "status": .string(status),
            "plan": .string(plan),
            "seats": .int(Int64(1 + seatsDraw)),
            "mrr": .double(Double(cents) / 100),
            "created_at": .string(created),
            "website": .string(website),
            "seats_trend": .array(Self.seatsTrend(index: index, seats: 1 + seatsDraw)),
        ])
    }

    /// Twelve weekly seat counts ending at `seats` (a sparkline's data): a walk back from it of up to 12% a week,
    /// from a generator of its own, so the other fields stay as they were.
    static func seatsTrend(index: Int, seats: Int) -> [JSONValue] {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: index) &* 0xC2B2_AE35 &+ 91)
        var week = seats, weeks: [JSONValue] = []
        for _ in 0..<12 {
            weeks.append(.int(Int64(week)))
            week = max(1, week + (week * (random.next(below: 25) - 12)) / 100 - (random.next(below: 3) - 1))
        }
        return weeks.reversed()
    }

    /// Records `range` clamped to the list.
    public func items(in range: Range<Int>) -> [JSONValue] {
        let clamped = range.clamped(to: 0..<count)
        return clamped.map(item(at:))
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    static let firstNames = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Niklaus",
        "Radia", "Tim", "Shafi", "Leslie", "Hedy", "John", "Katherine", "Dennis", "Sophie", "Yukihiro",
    ]
    static let lastNames = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton",
        "Wirth", "Perlman", "Berners-Lee", "Goldwasser", "Lamport", "Lamarr", "Backus", "Johnson", "Ritchie",
        "Wilson", "Matsumoto",
    ]
    static let cities = [
        "London", "Zürich", "São Paulo", "Reykjavík", "東京", "Lagos", "Montréal", "Kraków", "Auckland", "Nairobi",
    ]
    static let statuses = ["active", "active", "active", "trial", "pending", "suspended", "archived"]
    static let plans = ["free", "starter", "pro", "enterprise"]

    /// Records that show escaping at work: these must appear as text, never as markup or script.
    static let specialNames: [Int: String] = [
        6: "<script>alert('x')</script> & Sons",
        12: "\"><img src=x onerror=alert(1)>",
        19: "Ünïcödé 🚀 株式会社",
        41: "<b>unbalanced <i>markup",
    ]
    static let specialWebsites: [Int: String] = [
        6: "javascript:alert(1)",
        12: " JaVaScRiPt:alert(document.cookie)",
        41: "https://example.com/?q=<b>&x=\"y\"",
    ]
}

/// SplitMix64: a tiny, well-mixed deterministic generator (Steele, Lea and Flood, 2014).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`; `bound` must be positive.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
