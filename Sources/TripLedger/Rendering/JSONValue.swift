/// A JSON document as trip emits it: object keys sorted, amounts and rates as exact decimal
/// strings, absent values as explicit `null`, one document per command, newline-terminated.
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
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int(let v): out += String(v)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings (amounts, codes, dates, plain notes) are printable ASCII with nothing to
        // escape: appended whole, as streaming a 100,000-purchase list spends its time here.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls (C0, DEL, C1), line separators and format characters such as U+202E are
                // \u-escaped (UTF-16 units), so a legacy note cannot drive a terminal showing the JSON.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029 || (scalar.properties.generalCategory == .format && scalar.value != 0x200D) {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
