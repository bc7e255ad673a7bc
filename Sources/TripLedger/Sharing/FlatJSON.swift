import Synchronization

/// A travelling row's payload read in Swift: one JSON object whose values are strings, numbers,
/// `null` or booleans (what SQLite's `json_object` writes for a row). Applying a pull reads every
/// column of every row; asking SQLite for each with `json_extract` parsed the payload once per
/// column. Anything else (a nested value, bad JSON) gives `nil`, and the caller lets SQLite read it.
enum FlatJSON {
    /// A pulled row is read three times (its columns, its split, its references): the last
    /// payload read is kept.
    private static let last = Mutex<(text: String, fields: [(String, SQLValue)]?)?>(nil)

    static func fields(_ text: String) -> [(String, SQLValue)]? {
        if let cached = last.withLock({ $0 }), cached.text == text { return cached.fields }
        let fields = parse(text)
        last.withLock { $0 = (text, fields) }
        return fields
    }

    private static func parse(_ text: String) -> [(String, SQLValue)]? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { b -> [(String, SQLValue)]? in
            var i = 0
            func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
            func hex(_ c: UInt8) -> UInt32? {
                switch c {
                case 0x30...0x39: UInt32(c - 0x30)
                case 0x41...0x46: UInt32(c - 0x41 + 10)
                case 0x61...0x66: UInt32(c - 0x61 + 10)
                default: nil
                }
            }
            func string() -> String? {
                guard i < b.count, b[i] == 0x22 else { return nil }
                i += 1
                let start = i
                while i < b.count, b[i] != 0x22, b[i] != 0x5C { i += 1 }
                if i < b.count, b[i] == 0x22 {
                    defer { i += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                }
                var out = Array(b[start..<i])
                while i < b.count {
                    let c = b[i]
                    if c == 0x22 {
                        i += 1
                        return String(decoding: out, as: UTF8.self)
                    }
                    if c != 0x5C {
                        out.append(c)
                        i += 1
                        continue
                    }
                    guard i + 1 < b.count else { return nil }
                    let e = b[i + 1]
                    i += 2
                    switch e {
                    case 0x22, 0x5C, 0x2F: out.append(e)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x75:
                        func unit() -> UInt32? {
                            guard i + 4 <= b.count, let a = hex(b[i]), let b1 = hex(b[i + 1]), let c2 = hex(b[i + 2]), let d = hex(b[i + 3])
                            else { return nil }
                            i += 4
                            return a << 12 | b1 << 8 | c2 << 4 | d
                        }
                        guard var scalar = unit() else { return nil }
                        if scalar >= 0xD800 && scalar < 0xDC00 {
                            guard i + 2 <= b.count, b[i] == 0x5C, b[i + 1] == 0x75 else { return nil }
                            i += 2
                            guard let low = unit(), low >= 0xDC00 && low < 0xE000 else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let s = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: Array(String(Character(s)).utf8))
                    default: return nil
                    }
                }
                return nil
            }
            skipSpace()
            guard i < b.count, b[i] == 0x7B else { return nil }
            i += 1
            var out: [(String, SQLValue)] = []
            skipSpace()
            if i < b.count, b[i] == 0x7D { return out }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard i < b.count, b[i] == 0x3A else { return nil }
                i += 1
                skipSpace()
                guard i < b.count else { return nil }
                switch b[i] {
                case 0x22:
                    guard let s = string() else { return nil }
                    out.append((key, .text(s)))
                case 0x6E where b.count - i >= 4 && b[i + 1] == 0x75 && b[i + 2] == 0x6C && b[i + 3] == 0x6C:
                    i += 4
                    out.append((key, .null))
                case 0x74 where b.count - i >= 4 && b[i + 1] == 0x72 && b[i + 2] == 0x75 && b[i + 3] == 0x65:
                    i += 4
                    out.append((key, .integer(1)))
                case 0x66 where b.count - i >= 5 && b[i + 1] == 0x61 && b[i + 2] == 0x6C && b[i + 3] == 0x73 && b[i + 4] == 0x65:
                    i += 5
                    out.append((key, .integer(0)))
                case 0x2D, 0x30...0x39:
                    let start = i
                    i += 1
                    while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                    let literal = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                    // Only integers: a fraction or an exponent is left to SQLite's own reading.
                    guard i < b.count, b[i] != 0x2E, b[i] != 0x65, b[i] != 0x45, let n = Int64(literal) else { return nil }
                    out.append((key, .integer(n)))
                default:
                    return nil
                }
                skipSpace()
                guard i < b.count else { return nil }
                if b[i] == 0x2C {
                    i += 1
                    continue
                }
                guard b[i] == 0x7D else { return nil }
                i += 1
                skipSpace()
                return i == b.count ? out : nil
            }
        }
    }
}
