/// Ids of a shared trip's rows that friends can say to each other: `p-7kq4x` is the same purchase
/// on every device, where its local number (`#3` here, `#6` there) is not.
///
/// A shared id is made of the row's global id alone (a hash, so every device derives it without
/// asking anyone), in base 32 without the letters people misread (`i`, `l`, `o`, `u`), behind a
/// letter for its kind and a hyphen: never a number, an amount or a transfer's `T3`. Five
/// characters are shown; a row may be named by more of its (twelve) characters, which tells apart
/// two rows whose first five happen to agree: a device that holds both refuses the short one and
/// names each with enough characters to choose. The rule never depends on which other rows a
/// device holds, so a code said on one device names the same row on every other.
public enum SharedID {
    /// What a shared id names; its letter comes first.
    public enum Kind: String, Sendable, CaseIterable {
        case purchase = "p"
        case transfer = "t"
        case conflict = "c"

        /// How an error names the row to people.
        public var noun: String {
            switch self {
            case .purchase: "purchase"
            case .transfer: "transfer"
            case .conflict: "conflict"
            }
        }
    }

    /// Characters shown, and the fewest a typed shared id may have.
    public static let shownLength = 5
    /// Characters a row's code has in all (60 of the hash's 64 bits).
    public static let fullLength = 12

    /// Crockford's base 32: digits and lowercase letters without `i`, `l`, `o` and `u`.
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// The shared id shown for the row with global id `gid`: `p-7kq4x`.
    public static func code(_ kind: Kind, gid: String) -> String {
        code(kind, gid: gid, length: shownLength)
    }

    /// The shared id of `gid` with `length` characters after the hyphen (at most `fullLength`).
    public static func code(_ kind: Kind, gid: String, length: Int) -> String {
        kind.rawValue + "-" + String(digits(of: gid).prefix(length))
    }

    /// The kind and characters of a typed shared id (any case; `o` read as `0`, `i` and `l` as `1`,
    /// as people say them); `nil` when `text` is not a shared id (a local number, `T3`, …).
    public static func parse(_ text: String) -> (kind: Kind, digits: String)? {
        let t = text.lowercased()
        guard t.utf8.count > 2, let kind = Kind(rawValue: String(t.prefix(1))), t.dropFirst().hasPrefix("-") else { return nil }
        var digits: [UInt8] = []
        for byte in t.utf8.dropFirst(2) {
            let read: UInt8 =
                switch byte {
                case UInt8(ascii: "o"): UInt8(ascii: "0")
                case UInt8(ascii: "i"), UInt8(ascii: "l"): UInt8(ascii: "1")
                default: byte
                }
            guard alphabet.contains(read) else { return nil }
            digits.append(read)
        }
        guard (shownLength...fullLength).contains(digits.count) else { return nil }
        return (kind, String(decoding: digits, as: UTF8.self))
    }

    /// Whether typed characters `digits` (from `parse`) name the row with global id `gid`.
    public static func matches(_ digits: String, gid: String) -> Bool {
        Self.digits(of: gid).hasPrefix(digits)
    }

    /// The shortest code of `gid`, from `shownLength` characters on, that none of `others` shares:
    /// what an error offers when a typed shared id names several rows.
    public static func distinguishing(_ kind: Kind, gid: String, among others: [String]) -> String {
        let own = digits(of: gid)
        let theirs = others.filter { $0 != gid }.map(digits(of:))
        var length = shownLength
        while length < fullLength, theirs.contains(where: { $0.hasPrefix(own.prefix(length)) }) { length += 1 }
        return code(kind, gid: gid, length: length)
    }

    /// The twelve characters of `gid`'s code: FNV-1a (64 bits) of its bytes, mixed by SplitMix64's
    /// finalizer so that global ids that differ only in their last bytes (UUIDv7s made in one
    /// millisecond) differ from the first character, read five bits at a time from the top.
    static func digits(of gid: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in gid.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        var out: [UInt8] = []
        out.reserveCapacity(fullLength)
        for i in 0..<fullLength { out.append(alphabet[Int((hash >> UInt64(59 - 5 * i)) & 0x1F)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
