/// A parsed config file in trip's TOML subset: `[section]` headers, `key = value` lines and `#`
/// comments. Values are `"strings"` (with `\"` and `\\` escapes), `true`/`false`, or bare
/// numbers, which are kept as their text so that decimals stay exact.
public struct ConfigFile: Sendable {
    public struct Entry: Sendable {
        /// `""` for keys before any header; `preset.JP` for `[preset.JP]`.
        public let section: String
        public let key: String
        public let value: String
        public let line: Int
    }

    /// The file's name as shown in messages and in `trip config` (a path or `config/settings.toml`).
    public let origin: String
    public let entries: [Entry]

    public init(origin: String, text: String) throws(TripError) {
        self.origin = origin
        var entries: [Entry] = []
        // A key given twice in one section is an error, so that neither value wins silently.
        var firstLine: [String: Int] = [:]
        var section = ""
        var lineNumber = 0
        // Byte-level: this runs on every command start for the shipped defaults.
        let bytes = Array(text.utf8)
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            lineNumber += 1
            let line = ConfigFile.trim(ConfigFile.stripComment(bytes[lineStart..<lineEnd]))
            lineStart = lineEnd + 1
            if line.isEmpty { continue }
            func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
            if line.first == UInt8(ascii: "[") {
                guard line.last == UInt8(ascii: "]"), line.count > 2 else {
                    throw .badConfig(file: origin, line: lineNumber, message: "a section header looks like [name]")
                }
                section = text(ConfigFile.trim(line.dropFirst().dropLast()))
                continue
            }
            guard let eq = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw .badConfig(file: origin, line: lineNumber, message: "expected key = value, found \(quoted(text(line)))")
            }
            let key = ConfigFile.trim(line[..<eq])
            let rawValue = ConfigFile.trim(line[(eq + 1)...])
            guard !key.isEmpty, key.allSatisfy(ConfigFile.isKeyByte) else {
                throw .badConfig(file: origin, line: lineNumber, message: "bad key \(quoted(text(key)))")
            }
            let value: String
            if rawValue.first == UInt8(ascii: "\"") {
                guard let v = ConfigFile.unquote(rawValue) else {
                    throw .badConfig(file: origin, line: lineNumber, message: "unterminated string \(quoted(text(rawValue)))")
                }
                value = v
            } else {
                guard !rawValue.isEmpty else {
                    throw .badConfig(file: origin, line: lineNumber, message: "\(text(key)) has no value")
                }
                value = text(rawValue)
            }
            let keyText = text(key)
            if let first = firstLine.updateValue(lineNumber, forKey: section + "\u{0}" + keyText) {
                let place = section.isEmpty ? "" : " in [\(section)]"
                throw .badConfig(file: origin, line: lineNumber, message: "\(keyText) is given twice\(place); first on line \(first)")
            }
            entries.append(Entry(section: section, key: keyText, value: value, line: lineNumber))
        }
        self.entries = entries
    }

    static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b >= 0x80
    }

    static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 || f == 0x0D { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 || l == 0x0D { s = s.dropLast() }
        return s
    }

    /// Removes a `#` comment that is not inside a string.
    static func stripComment(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var inString = false, escaped = false
        for i in line.indices {
            let c = line[i]
            if escaped { escaped = false; continue }
            if c == UInt8(ascii: "\\") && inString { escaped = true; continue }
            if c == UInt8(ascii: "\"") { inString.toggle() }
            if c == UInt8(ascii: "#") && !inString { return line[line.startIndex..<i] }
        }
        return line
    }

    /// The content of a `"…"` string with `\"`, `\\` and `\n` escapes, or `nil` if unterminated.
    static func unquote(_ text: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var escaped = false
        for c in text.dropFirst() {
            if escaped { out.append(c == UInt8(ascii: "n") ? 0x0A : c); escaped = false; continue }
            if c == UInt8(ascii: "\\") { escaped = true; continue }
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            out.append(c)
        }
        return nil
    }
}
