import TripCore
import TripModel

/// Reads JSON written by SQLite's `json_object` and `json_array` (and by `JSONValue`) straight
/// from its bytes: strings, numbers, `null` and booleans, and the brackets around them. A pull
/// reads every column of every travelling row, so this is the one JSON scanner of the sharing
/// code; anything it does not expect makes the caller's read fail (`nil`), never guess.
struct JSONReader {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// Skips white space, then consumes `byte` if it comes next.
    package mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func hex(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    /// A string, unescaped; `nil` unless one comes next.
    package mutating func string() -> String? {
        switch stringBytes() {
        case .inPlace(let bytes)?: String(decoding: bytes, as: UTF8.self)
        case .unescaped(let bytes)?: String(decoding: bytes, as: UTF8.self)
        case nil: nil
        }
    }

    /// A string's UTF-8: most strings have nothing escaped and are read in place.
    enum StringBytes {
        case inPlace(UnsafeBufferPointer<UInt8>)
        case unescaped([UInt8])
    }

    mutating func stringBytes() -> StringBytes? {
        skipSpace()
        let b = bytes
        guard index < b.count, b[index] == 0x22 else { return nil }
        index += 1
        let start = index
        while index < b.count, b[index] != 0x22, b[index] != 0x5C { index += 1 }
        if index < b.count, b[index] == 0x22 {
            defer { index += 1 }
            return .inPlace(UnsafeBufferPointer(rebasing: b[start..<index]))
        }
        var out = Array(b[start..<index])
        while index < b.count {
            let c = b[index]
            if c == 0x22 {
                index += 1
                return .unescaped(out)
            }
            if c != 0x5C {
                out.append(c)
                index += 1
                continue
            }
            guard index + 1 < b.count else { return nil }
            let e = b[index + 1]
            index += 2
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard var scalar = unit() else { return nil }
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 2 <= b.count, b[index] == 0x5C, b[index + 1] == 0x75 else { return nil }
                    index += 2
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

    /// The four hex digits of a `\u` escape.
    private mutating func unit() -> UInt32? {
        let b = bytes
        guard index + 4 <= b.count, let a = hex(b[index]), let b1 = hex(b[index + 1]), let c2 = hex(b[index + 2]),
            let d = hex(b[index + 3])
        else { return nil }
        index += 4
        return a << 12 | b1 << 8 | c2 << 4 | d
    }

    /// How a number with a fraction or an exponent is read: refused (the caller lets SQLite read
    /// the whole text), or kept as its text, which a column stores as SQLite would have converted it.
    enum Fractions { case refused, asText }

    /// A string, an integer, `null`, or a boolean (1 or 0); `nil` for anything else.
    mutating func scalar(fractions: Fractions) -> SQLValue? {
        switch token() {
        case .null?: return .null
        case .integer(let n)?: return .integer(n)
        case .text(.inPlace(let text))?: return .text(String(decoding: text, as: UTF8.self))
        case .text(.unescaped(let text))?: return .text(String(decoding: text, as: UTF8.self))
        case .number(let literal)?: return fractions == .asText ? .text(String(decoding: literal, as: UTF8.self)) : nil
        case nil: return nil
        }
    }

    /// `scalar`, appended to `packed` without a `String`: a pull of a first share reads every
    /// column of tens of thousands of purchases. `false` (and nothing appended) for anything else.
    mutating func scalar(into packed: inout PackedValues, fractions: Fractions) -> Bool {
        switch token() {
        case .null?: packed.appendNull()
        case .integer(let n)?: packed.appendInteger(n)
        case .text(.inPlace(let text))?: packed.appendText(text)
        case .text(.unescaped(let text))?: packed.appendText(text)
        case .number(let literal)?:
            guard fractions == .asText else { return false }
            packed.appendText(literal)
        case nil: return false
        }
        return true
    }

    /// One scalar as read: booleans as 1 and 0, and a number that is not a whole `Int64` as its text.
    private enum Token {
        case null
        case integer(Int64)
        case text(StringBytes)
        case number(UnsafeBufferPointer<UInt8>)
    }

    private mutating func token() -> Token? {
        skipSpace()
        let b = bytes
        guard index < b.count else { return nil }
        switch b[index] {
        case 0x22:
            return stringBytes().map { .text($0) }
        case 0x6E where b.count - index >= 4 && b[index + 1] == 0x75 && b[index + 2] == 0x6C && b[index + 3] == 0x6C:
            index += 4
            return .null
        case 0x74 where b.count - index >= 4 && b[index + 1] == 0x72 && b[index + 2] == 0x75 && b[index + 3] == 0x65:
            index += 4
            return .integer(1)
        case 0x66 where b.count - index >= 5 && b[index + 1] == 0x61 && b[index + 2] == 0x6C && b[index + 3] == 0x73 && b[index + 4] == 0x65:
            index += 5
            return .integer(0)
        case 0x2D, 0x30...0x39:
            let start = index
            index += 1
            while index < b.count, (0x30...0x39).contains(b[index]) { index += 1 }
            var whole = true
            while index < b.count,
                b[index] == 0x2E || b[index] == 0x65 || b[index] == 0x45 || b[index] == 0x2B || b[index] == 0x2D
                    || (0x30...0x39).contains(b[index])
            {
                whole = false
                index += 1
            }
            let literal = UnsafeBufferPointer(rebasing: b[start..<index])
            if whole, let n = JSONReader.integer(literal) { return .integer(n) }
            // A lone minus sign is not a number.
            return literal.count == 1 && literal[0] == 0x2D ? nil : .number(literal)
        default:
            return nil
        }
    }

    /// The value of an optional `-` and digits, `nil` when it does not fit an `Int64`.
    private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = digits.first == 0x2D
        let body = UnsafeBufferPointer(rebasing: digits[(negative ? 1 : 0)...])
        guard !body.isEmpty else { return nil }
        // Summed below zero, so that the smallest Int64 (one more than the largest, negated) fits.
        var n: Int64 = 0
        for d in body {
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.subtractingReportingOverflow(Int64(d - 0x30))
            if o1 || o2 { return nil }
            n = sum
        }
        if negative { return n }
        return n == .min ? nil : -n
    }
}
