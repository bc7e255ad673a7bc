/// Hides the passwords of a libpq connection string before any output shows it: `trip config`,
/// and every error that quotes the string (libpq's own parse errors echo it whole).
///
/// Pure string work, without libpq, so it also runs on strings libpq refused. It reads both of
/// libpq's forms, as libpq does but erring towards hiding more:
/// - URI (`postgresql://` or `postgres://`): the password of the user info, taken up to the last
///   `@` before the first `/` (libpq takes the first, so a raw `@` in a password stays hidden),
///   and the value of every query parameter whose percent-decoded name holds `password`
///   (`?password=`, `?%70assword=`, `?sslpassword=`).
/// - key-value (`host=h password='a b\'c'`): the value of every keyword holding `password`, quoted
///   or not, with libpq's `\'` and `\\` escapes and spaces around `=`; an unclosed quote hides
///   the rest of the string. A value that is itself a URI is redacted as one.
public enum ConnectionRedaction {
    /// What a hidden value is replaced with.
    public static let mask = "***"

    /// `conninfo` with every password replaced by `***`; the rest as written.
    public static func redact(_ conninfo: String) -> String {
        var out = ""
        for piece in pieces(conninfo) {
            guard let secret = piece.secret else {
                out += piece.text
                continue
            }
            // A URI given as a key-value `dbname` shows as a redacted URI.
            out += piece.text.isEmpty ? "" : piece.text == secret && isURI(secret) ? redact(secret) : mask
        }
        return out
    }

    /// The passwords `conninfo` holds, each as written and as libpq reads it (percent-decoded or
    /// unescaped), for scrubbing text that quotes them elsewhere.
    public static func secrets(in conninfo: String) -> [String] {
        var found: [String] = []
        for piece in pieces(conninfo) {
            guard let decoded = piece.secret, !piece.text.isEmpty else { continue }
            found.append(piece.text)
            if decoded != piece.text { found.append(decoded) }
            // A URI given as a key-value `dbname`: its own passwords, as libpq reads them.
            if isURI(decoded) && decoded != conninfo { found += secrets(in: decoded) }
        }
        return found
    }

    /// `text` (an error message) with `conninfo` redacted wherever it is quoted, then each of its
    /// passwords replaced by `***`. A password too short to replace safely (it would hit other
    /// words) that still appears withholds the whole text, as `withheld`.
    public static func scrub(_ text: String, conninfo: String) -> String {
        guard !conninfo.isEmpty else { return text }
        var result = text.replacing(conninfo, with: redact(conninfo))
        let secrets = Set(secrets(in: conninfo)).sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
        for secret in secrets where secret.count >= 4 {
            result = result.replacing(secret, with: mask)
        }
        if secrets.contains(where: { result.contains($0) }) { return withheld }
        return result
    }

    /// Said instead of a message that would show a short password.
    public static let withheld = "(the message is withheld: it quotes the connection string's password)"

    /// A run of the connection string: text shown as it is (`secret` nil), or a password as
    /// written (`text`) with the value libpq reads from it (`secret`).
    struct Piece {
        var text: String
        var secret: String?
    }

    static func pieces(_ conninfo: String) -> [Piece] {
        let lower = conninfo.lowercased()
        for scheme in ["postgresql://", "postgres://"] where lower.hasPrefix(scheme) {
            return uriPieces(Array(conninfo.unicodeScalars), schemeLength: scheme.count)
        }
        return keywordPieces(Array(conninfo.unicodeScalars))
    }

    // MARK: URI form

    private static func uriPieces(_ s: [Unicode.Scalar], schemeLength: Int) -> [Piece] {
        var pieces = [Piece(text: text(s[0..<schemeLength]))]
        var i = schemeLength
        let slash = s[i...].firstIndex(of: "/") ?? s.endIndex
        if let at = s[i..<slash].lastIndex(of: "@") {
            if let colon = s[i..<at].firstIndex(of: ":") {
                pieces.append(Piece(text: text(s[i...colon])))
                let written = text(s[(colon + 1)..<at])
                pieces.append(Piece(text: written, secret: percentDecoded(written)))
                i = at
            }
        }
        // The query: after the first `?` past the user info (libpq reads no fragment).
        guard let question = s[i...].firstIndex(of: "?") else {
            pieces.append(Piece(text: text(s[i...])))
            return pieces
        }
        pieces.append(Piece(text: text(s[i...question])))
        var start = question + 1
        while start <= s.count {
            let end = s[start...].firstIndex(of: "&") ?? s.endIndex
            let pair = s[start..<end]
            if let equals = pair.firstIndex(of: "="), isSensitive(percentDecoded(text(s[start..<equals]))) {
                pieces.append(Piece(text: text(s[start...equals])))
                let written = text(s[(equals + 1)..<end])
                pieces.append(Piece(text: written, secret: percentDecoded(written)))
            } else {
                pieces.append(Piece(text: text(pair)))
            }
            if end < s.count { pieces.append(Piece(text: "&")) }
            start = end + 1
        }
        return pieces
    }

    // MARK: Key-value form

    private static func keywordPieces(_ s: [Unicode.Scalar]) -> [Piece] {
        var pieces: [Piece] = []
        var i = 0
        func isSpace(_ k: Int) -> Bool { k < s.count && s[k].properties.isWhitespace }
        while i < s.count {
            let start = i
            while isSpace(i) { i += 1 }
            let keyStart = i
            while i < s.count, s[i] != "=", !isSpace(i) { i += 1 }
            let key = text(s[keyStart..<i])
            while isSpace(i) { i += 1 }
            guard i < s.count, s[i] == "=" else {
                // No `=`: libpq refuses the string; the word is shown, the scan goes on.
                pieces.append(Piece(text: text(s[start..<i])))
                if i == keyStart && i < s.count { i += 1 }
                continue
            }
            i += 1
            while isSpace(i) { i += 1 }
            pieces.append(Piece(text: text(s[start..<i])))
            let (valueEnd, value, quoted) = readValue(s, from: i)
            let written = text(s[i..<valueEnd])
            if isSensitive(key) {
                // The quotes stay, so that the shape of the string is still readable.
                if quoted && written.count >= 2 && written.last == "'" {
                    pieces += [Piece(text: "'"), Piece(text: String(written.dropFirst().dropLast()), secret: value), Piece(text: "'")]
                } else if quoted {
                    pieces += [Piece(text: "'"), Piece(text: String(written.dropFirst()), secret: value)]
                } else {
                    pieces.append(Piece(text: written, secret: value))
                }
            } else if isURI(value) {
                let inner = Self.pieces(value)
                pieces += inner.contains { $0.secret != nil } ? [Piece(text: written, secret: value)] : [Piece(text: written)]
            } else {
                pieces.append(Piece(text: written))
            }
            i = valueEnd
        }
        return pieces
    }

    /// The value starting at `from`, as libpq reads it: up to whitespace, or between single
    /// quotes; a backslash takes the next character as it is. An unclosed quote runs to the end.
    private static func readValue(_ s: [Unicode.Scalar], from: Int) -> (end: Int, value: String, quoted: Bool) {
        var i = from
        var value = String.UnicodeScalarView()
        let quoted = i < s.count && s[i] == "'"
        if quoted { i += 1 }
        while i < s.count {
            let c = s[i]
            if quoted && c == "'" { return (i + 1, String(value), true) }
            if !quoted && c.properties.isWhitespace { break }
            if c == "\\" && i + 1 < s.count {
                value.append(s[i + 1])
                i += 2
                continue
            }
            value.append(c)
            i += 1
        }
        return (i, String(value), quoted)
    }

    // MARK: Helpers

    static func isURI(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// A keyword or query name whose value is a secret: `password`, `sslpassword`, any case.
    static func isSensitive(_ name: String) -> Bool { name.lowercased().contains("password") }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// `%XX` escapes decoded as libpq decodes them (bytes, read as UTF-8, invalid bytes replaced);
    /// a `%` not followed by two hex digits is kept.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hex(utf8[utf8.startIndex]),
                let low = hex(utf8[utf8.index(after: utf8.startIndex)])
            {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
