/// How a table's skeleton bones move while its rows load (docs/CONFIG.md "Skeletons"), as SkeletonView's options
/// do: a sliding gradient (`shimmer`), a `pulse`, or `none`; the seconds one sweep or pulse takes; and the way a
/// shimmer slides. The server writes it as the table's `data-skeleton` and `data-skeleton-direction` attributes
/// (``TableRenderer/renderShell(streamURL:batchSize:skeletonCount:)``) and its speed as `--rs-skeleton-speed` in
/// ``TableStyleSheet``; app.css turns those into the animation, and stops every animation for a viewer who asks for
/// reduced motion. Each option left nil is the page's default (a left-to-right shimmer of 1.4 s, or what the page's
/// own `--rs-skeleton-*` properties say). Thread-safe: a value.
public struct SkeletonStyle: Sendable, Hashable {
    /// How the bones move.
    public enum Animation: String, Sendable, CaseIterable {
        /// A lighter band slides across each bone.
        case shimmer
        /// Each bone fades out and back.
        case pulse
        /// Still bones.
        case none
    }

    /// Which way a shimmer's band slides.
    public enum Direction: String, Sendable, CaseIterable {
        case leftToRight = "left-to-right"
        case rightToLeft = "right-to-left"
        case topToBottom = "top-to-bottom"
        case bottomToTop = "bottom-to-top"
        case topLeftToBottomRight = "top-left-to-bottom-right"
        case bottomRightToTopLeft = "bottom-right-to-top-left"
    }

    /// The seconds a sweep or pulse may take.
    public static let speedRange: ClosedRange<Double> = 0.2...20

    public var animation: Animation?
    /// Seconds per sweep (a shimmer) or per fade (a pulse), in ``speedRange``; nil: the page's default.
    public var speed: Double?
    public var direction: Direction?

    public init(animation: Animation? = nil, speed: Double? = nil, direction: Direction? = nil) {
        self.animation = animation
        self.speed = speed
        self.direction = direction
    }

    /// This style, with each option it leaves nil taken from `base` (a table's over the config's `skeleton`).
    public func merged(over base: SkeletonStyle) -> SkeletonStyle {
        SkeletonStyle(animation: animation ?? base.animation, speed: speed ?? base.speed,
                      direction: direction ?? base.direction)
    }

    /// Whether every option is the page's default.
    public var isDefault: Bool { animation == nil && speed == nil && direction == nil }

    /// The table attributes of the style: ` data-skeleton="pulse" data-skeleton-direction="right-to-left"` (each
    /// only when chosen; the values are fixed names, nothing to escape).
    public var shellAttributes: String {
        var out = ""
        if let animation { out += " data-skeleton=\"\(animation.rawValue)\"" }
        if let direction { out += " data-skeleton-direction=\"\(direction.rawValue)\"" }
        return out
    }

    /// The table's rule in /tables.css: its speed, or nothing.
    func rule(table: String) -> String {
        guard let speed, Self.speedRange.contains(speed) else { return "" }
        return "\(table){--rs-skeleton-speed:\(Self.seconds(speed))}\n"
    }

    /// `speed` as a CSS time: `1.5s`, `2s` (milliseconds rounded).
    static func seconds(_ speed: Double) -> String {
        let milliseconds = Int((speed * 1000).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
