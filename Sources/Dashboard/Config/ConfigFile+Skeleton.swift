import JSON
import Tables

/// A `skeleton` object (docs/CONFIG.md "Skeletons"), on a table or at the top of the file (every table's, a table's
/// own options over it): `{"animation": "shimmer" | "pulse" | "none", "speed": SECONDS, "direction": "left-to-right"
/// | "right-to-left" | "top-to-bottom" | "bottom-to-top" | "top-left-to-bottom-right" | "bottom-right-to-top-left"}`,
/// every key optional. A direction is a shimmer's: with another animation it is an error.
enum SkeletonConfig {
    static func style(_ reader: ConfigReader) throws(ConfigError) -> SkeletonStyle {
        var reader = reader
        try reader.rejectUnknown(["animation", "speed", "direction"])
        var style = SkeletonStyle()
        if let name = try reader.string("animation") {
            guard let animation = SkeletonStyle.Animation(rawValue: name) else {
                let names = SkeletonStyle.Animation.allCases.map(\.rawValue)
                throw reader.error("animation", "one of " + names.joined(separator: ", "))
            }
            style.animation = animation
        }
        if let value = reader.value("speed") {
            let range = SkeletonStyle.speedRange
            guard let speed = value.doubleValue, range.contains(speed) else {
                throw reader.error("speed", "a number of seconds per sweep in \(range.lowerBound)...\(range.upperBound)")
            }
            style.speed = speed
        }
        if let name = try reader.string("direction") {
            guard let direction = SkeletonStyle.Direction(rawValue: name) else {
                let names = SkeletonStyle.Direction.allCases.map(\.rawValue)
                throw reader.error("direction", "one of " + names.joined(separator: ", "))
            }
            guard style.animation == nil || style.animation == .shimmer else {
                throw reader.error("direction", "only with \"animation\": \"shimmer\" (the way its band slides)")
            }
            style.direction = direction
        }
        try reader.finish()
        return style
    }

    /// Each table's style, its own options over `shared` (the file's `skeleton`); nil where all are defaults.
    static func apply(_ shared: SkeletonStyle?, to tables: inout [TableConfig]) {
        for index in tables.indices {
            let own = tables[index].spec.skeleton ?? SkeletonStyle()
            let style = shared.map { own.merged(over: $0) } ?? own
            tables[index].spec.skeleton = style.isDefault ? nil : style
        }
    }
}
