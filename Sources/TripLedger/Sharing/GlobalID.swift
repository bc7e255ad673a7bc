#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Global ids of rows that travel between devices: UUIDv7 (RFC 9562), time-ordered, so the
/// server's indexes on them grow at the end.
public enum GlobalID {
    public static func make() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let millis = UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec / 1_000_000)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - i))) }
        var generator = SystemRandomNumberGenerator()
        for i in 6..<16 { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)     // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)     // RFC 9562 variant
        let hex = bytes.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }

    /// A member's global id comes from the trip and the name, so that members added under the same
    /// name on two devices are one member everywhere.
    static func member(trip: String, name: String) -> String {
        "member:\(trip):\(name.lowercased())"
    }
}
