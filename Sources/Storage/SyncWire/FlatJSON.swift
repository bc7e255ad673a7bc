import Synchronization

/// A travelling row's payload read in Swift: one JSON object whose values are strings, numbers,
/// `null` or booleans (what SQLite's `json_object` writes for a row). Applying a pull reads every
/// column of every row; asking SQLite for each with `json_extract` parsed the payload once per
/// column. Anything else (a nested value, bad JSON) gives `nil`, and the caller lets SQLite read it.
package enum FlatJSON {
    /// A pulled row is read three times (its columns, its split, its references): the last
    /// payload read is kept.
    private static let last = Mutex<(text: String, fields: [(String, SQLValue)]?)?>(nil)

    package static func fields(_ text: String) -> [(String, SQLValue)]? {
        if let cached = last.withLock({ $0 }), cached.text == text { return cached.fields }
        let fields = parse(text)
        last.withLock { $0 = (text, fields) }
        return fields
    }

    private static func parse(_ text: String) -> [(String, SQLValue)]? {
        var text = text
        return text.withUTF8 { bytes -> [(String, SQLValue)]? in
            var reader = JSONReader(bytes)
            guard reader.take(0x7B) else { return nil }
            var out: [(String, SQLValue)] = []
            if reader.take(0x7D) { return out }
            repeat {
                guard let key = reader.string(), reader.take(0x3A), let value = reader.scalar(fractions: .refused) else { return nil }
                out.append((key, value))
            } while reader.take(0x2C)
            guard reader.take(0x7D) else { return nil }
            reader.skipSpace()
            return reader.atEnd ? out : nil
        }
    }
}
