/// A JSON document as trip writes it, for its outputs (`--format json`, one document per command,
/// newline-terminated) and for the wire format of shared trips alike: object keys sorted, amounts
/// and rates as exact decimal strings, absent values as explicit `null`.
public indirect enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// An integer (ids and counts only; money is always a `.string`).
    case int(Int64)
    case bool(Bool)
    case null

    public init(_ s: String?) { self = s.map { .string($0) } ?? .null }

    /// Compact, with keys sorted so that output is stable byte for byte.
    public var serialized: String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `serialized`'s UTF-8 to `out`: built as bytes, which a streamed list writes
    /// straight to its output buffer (no `String` per row).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int(let v): out.append(contentsOf: String(v).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// `writeString` of UTF-8 bytes (a column read from SQLite), without a `String` when there is
    /// nothing to escape.
    public static func writeString(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
            writeString(String(decoding: bytes, as: UTF8.self), to: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "\""))
    }

    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (amounts, codes, dates, plain notes) are printable ASCII with nothing to
        // escape: appended whole, as streaming a 100,000-purchase list spends its time here.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".utf8)
            case "\\": out.append(contentsOf: "\\\\".utf8)
            case "\n": out.append(contentsOf: "\\n".utf8)
            case "\r": out.append(contentsOf: "\\r".utf8)
            case "\t": out.append(contentsOf: "\\t".utf8)
            default:
                // Controls (C0, DEL, C1), line separators and format characters such as U+202E are
                // \u-escaped (UTF-16 units), so a legacy note cannot drive a terminal showing the JSON.
                if UnsafeText.isUnsafe(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                    }
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
