import Storage
import TripLedger

/// The text encodings card statements come in, turned into UTF-8 before anything is read.
///
/// Banks write UTF-8 (with or without a byte order mark), Windows-1252 or Latin-1 (DKB's older
/// download, most German savings banks) and now and then UTF-16 with its byte order mark. Bytes that
/// are valid UTF-8 are UTF-8: a Windows-1252 text of letters above 0x7F is almost never valid UTF-8,
/// and the other way round the decision cannot change an amount or a date, only a note's letters.
enum StatementEncoding: String, Sendable {
    case utf8 = "UTF-8"
    case utf8BOM = "UTF-8 with BOM"
    case windows1252 = "Windows-1252"
    case utf16LE = "UTF-16LE"
    case utf16BE = "UTF-16BE"

    /// `bytes` as UTF-8, and the encoding they were in. A UTF-8 byte order mark is left for the CSV
    /// reader, which skips one (a second is text, and a header holding it is refused as before).
    static func decode(_ bytes: [UInt8]) -> (text: [UInt8], encoding: StatementEncoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (bytes, .utf8BOM) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (utf16(bytes.dropFirst(2), littleEndian: true), .utf16LE) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (utf16(bytes.dropFirst(2), littleEndian: false), .utf16BE) }
        if String(validating: bytes, as: UTF8.self) != nil { return (bytes, .utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            guard b >= 0x80 else {
                out.append(b)
                continue
            }
            // Latin-1 is Windows-1252 but for 0x80–0x9F, control codes no statement uses: there
            // Windows-1252's letters (€ at 0x80) are read; its five unassigned bytes stay controls.
            let scalar = b < 0xA0 ? cp1252[Int(b - 0x80)] : UInt32(b)
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        }
        return (out, .windows1252)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Windows-1252's 0x80–0x9F; the unassigned bytes map to the C1 control of the same value.
    private static let cp1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
