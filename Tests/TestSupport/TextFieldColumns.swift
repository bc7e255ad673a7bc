import TripCore

/// Purchase CSVs without the columns of `PurchaseTextFields.all`, which every purchase CSV ends with:
/// a test pinned to the contract's own columns then holds whatever text fields are declared (their
/// cells must be empty). With none declared, the text comes back unchanged.
public enum TextFieldColumns {
    /// `csv` with each record's last `PurchaseTextFields.all.count` cells taken off, if empty (the
    /// header's, if they are the fields' keys); a record whose last cells are not is kept whole, so
    /// a comparison fails on it. Records end in CRLF outside quotes, as `PurchaseCSV` writes them.
    public static func removed(from csv: String) -> String {
        let keys = PurchaseTextFields.all.map(\.key)
        guard !keys.isEmpty else { return csv }
        var out = "", record = "", quoted = false
        for c in csv {
            record.append(c)
            if c == "\"" { quoted.toggle() }
            if c == "\r\n" && !quoted {
                out += removed(fromRecord: String(record.dropLast()), keys: keys) + "\r\n"
                record = ""
            }
        }
        return out + (record.isEmpty ? "" : removed(fromRecord: record, keys: keys))
    }

    /// One record (no line end) without its text field cells.
    public static func removed(fromRecord record: String) -> String {
        let keys = PurchaseTextFields.all.map(\.key)
        return keys.isEmpty ? record : removed(fromRecord: record, keys: keys)
    }

    private static func removed(fromRecord record: String, keys: [String]) -> String {
        let header = keys.map { "," + $0 }.joined()
        if record.hasSuffix(header) { return String(record.dropLast(header.count)) }
        let empty = String(repeating: ",", count: keys.count)
        return record.hasSuffix(empty) ? String(record.dropLast(keys.count)) : record
    }
}
