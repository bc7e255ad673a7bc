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
        // Two draws of the system generator, not one per byte: a share makes two ids per row.
        var generator = SystemRandomNumberGenerator()
        let high = generator.next(), low = generator.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - i))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * i)) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: low >> (8 * (i - 8))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // RFC 9562 variant
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A member's global id comes from the trip and the name, so that members added under the same
    /// name on two devices are one member everywhere.
    static func member(trip: String, name: String) -> String {
        "member:\(trip):\(name.lowercased())"
    }
}
