import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Global ids of rows that travel between devices: UUIDv7 (RFC 9562), time-ordered, so the
/// indexes on them, here and on the server, grow at their end.
public enum GlobalID {
    public static func make() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let (millis, counter, random) = RandomPool.shared.next(millis: UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec / 1_000_000))
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - i))) }
        // rand_a is a counter (RFC 9562, 6.2, method 1): the ids one process makes are in order
        // even within one millisecond, as a first share makes tens of thousands of them.
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: counter >> 8)  // version 7
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: random >> (8 * (i - 8))) }
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
    package static func member(trip: String, name: String) -> String {
        "member:\(trip):\(name.lowercased())"
    }

    /// A member's global id when the one made of its name is taken by another member (renamed
    /// from that name): the name, then `=` (which no member name holds) and a UUIDv7.
    package static func member(trip: String, name: String, unique: Bool) -> String {
        member(trip: trip, name: name) + (unique ? "=" + make() : "")
    }

    /// The global id of a conflict: version `lost` of row `row` lost to a version written without
    /// seeing it. Made of the losing version alone: every device sees that version lose (to the
    /// same winner when two versions clash; with three or more, each device to the one it held),
    /// whichever order the versions reached it in, so every device lists the conflict under the
    /// same id and a resolution made on one closes it on all (README, "Conflicts travel").
    package static func conflict(row: String, lost: Version) -> String {
        "conflict:\(row):\(lost.hlc)@\(lost.device)"
    }

    /// The global id of a settle-up's transfer from member `from` to member `to` (global ids),
    /// made of the balances it settles (`balances`: each member's global id and balance): the same
    /// on every device that settles the same balances. FNV-1a, 64 bits, of those texts.
    package static func settlement(trip: String, balances: String, from: String, to: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (balances + "|" + from + ">" + to).utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "settle:\(trip):" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// How a travelling row names a member of its own trip: `@NAME`, the global id without the
    /// trip's id, which every row of the trip would otherwise repeat for every payer and share
    /// (a first share moved half its bytes in them). A member of another trip keeps its global id.
    package static func memberReference(_ gid: String, trip: String) -> String {
        let prefix = "member:\(trip):"
        // Compared and cut as bytes: a name may begin with a combining mark.
        guard gid.utf8.starts(with: prefix.utf8), let name = String(gid.utf8.dropFirst(prefix.utf8.count)) else { return gid }
        return "@" + name
    }

    /// The name in a member's whole global id (`member:TRIP:NAME`) of any trip; `nil` for anything else.
    static func memberNameInAnyTrip(_ gid: String) -> String? {
        guard gid.hasPrefix("member:"), let colon = gid.dropFirst("member:".count).firstIndex(of: ":") else { return nil }
        return String(gid[gid.index(after: colon)...])
    }

    /// The name a member's global id of `trip` is made of (lowercased, as `member` made it), or
    /// `nil` for a global id of another form.
    package static func memberName(_ gid: String, trip: String) -> String? {
        let prefix = "member:\(trip):"
        guard gid.utf8.starts(with: prefix.utf8), let rest = String(gid.utf8.dropFirst(prefix.utf8.count)) else { return nil }
        return rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? rest
    }

    /// The global id a member reference names: `@NAME` within `trip`, anything else as written.
    package static func memberGID<S: StringProtocol>(_ reference: S, trip: String) -> String {
        reference.utf8.first == UInt8(ascii: "@")
            ? "member:\(trip):" + String(decoding: reference.utf8.dropFirst(), as: UTF8.self) : String(reference)
    }
}

/// Random bits for ids, drawn from the system in blocks (a first share makes two ids for each of
/// tens of thousands of rows, and the system generator makes one system call per draw), and the
/// last id's time and counter.
private final class RandomPool: Sendable {
    package static let shared = RandomPool()
    private let state = Mutex<(words: [UInt64], next: Int, millis: UInt64, counter: UInt16)>(([], 0, 0, 0))

    /// The time and 12-bit counter of the next id, and 64 random bits. A new millisecond starts
    /// the counter at a random value below 2048, leaving room to count up; a counter that runs
    /// out moves on to the next millisecond, so ids never go back.
    package func next(millis now: UInt64) -> (millis: UInt64, counter: UInt16, random: UInt64) {
        state.withLock { pool in
            if pool.next + 2 > pool.words.count {
                var words = [UInt64](repeating: 0, count: 2048)
                words.withUnsafeMutableBytes { fill($0) }
                pool.words = words
                pool.next = 0
            }
            defer { pool.next += 2 }
            if now > pool.millis {
                pool.millis = now
                pool.counter = UInt16(truncatingIfNeeded: pool.words[pool.next + 1] & 0x7FF)
            } else if pool.counter < 0xFFF {
                pool.counter += 1
            } else {
                pool.millis += 1
                pool.counter = UInt16(truncatingIfNeeded: pool.words[pool.next + 1] & 0x7FF)
            }
            return (pool.millis, pool.counter, pool.words[pool.next])
        }
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Darwin)
        arc4random_buf(buffer.baseAddress!, buffer.count)
        #else
        var filled = 0
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            while filled < buffer.count {
                let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n > 0 { filled += n } else if n == 0 || errno != EINTR { break }
            }
            close(fd)
        }
        if filled < buffer.count {
            // No /dev/urandom (a sandbox): the standard library's generator, one system call per word.
            var generator = SystemRandomNumberGenerator()
            for i in stride(from: 0, to: buffer.count, by: 8) { buffer.storeBytes(of: generator.next(), toByteOffset: i, as: UInt64.self) }
        }
        #endif
    }
}
