import Foundation

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so that a test drawing random
/// kill moments or inputs draws the same ones on every run and a failure can be replayed from its
/// printed seed. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in `0...limit` seconds (microsecond steps).
    public mutating func seconds(upTo limit: Double) -> Double {
        guard limit > 0 else { return 0 }
        let steps = UInt64(limit * 1_000_000)
        return Double(UInt64.random(in: 0...steps, using: &self)) / 1_000_000
    }
}

/// Long hardening suites (`make test-long` sets `TRIP_LONG_TESTS=1`); `make test` runs them small.
public enum HardeningScale {
    public static var isLong: Bool { ProcessInfo.processInfo.environment["TRIP_LONG_TESTS"] == "1" }

    /// `long` under `make test-long`, `short` otherwise.
    public static func pick<T>(short: T, long: T) -> T { isLong ? long : short }
}
