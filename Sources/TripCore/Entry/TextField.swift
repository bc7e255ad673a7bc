/// The rules for free text a user types: notes, trip names, categories and payment methods.
///
/// Text is stored verbatim (SQL in a note is just text: every statement binds its parameters), but
/// only printable text is accepted, so nothing stored can later drive a terminal:
///
/// - valid UTF-8 (a `String` built from invalid bytes holds U+FFFD, which is rejected), no NUL;
/// - no C0 control character (U+0000–U+001F, so also ESC), DEL (U+007F) and no C1 control
///   character (U+0080–U+009F); notes alone may hold tabs and line breaks (LF or CRLF: a
///   multi-line note), but not a CR on its own, which rewrites a terminal line;
/// - at most `maxBytes` bytes of UTF-8: notes 4,096, trip names 200, categories and payment
///   methods 100.
///
/// Other invisible characters (bidi overrides such as U+202E, zero-width spaces) are accepted, as
/// right-to-left text needs some of them; every text output escapes them (`TextFormat.safe`).
public enum TextField {
    /// The longest note, in bytes of UTF-8.
    public static let noteMaxBytes = 4096
    /// The longest trip name, in bytes of UTF-8.
    public static let tripNameMaxBytes = 200
    /// The longest member name, in bytes of UTF-8.
    public static let memberMaxBytes = 100
    /// The longest category or payment method, in bytes of UTF-8.
    public static let labelMaxBytes = 100

    /// Returns `text` unchanged if it follows the rules above, else throws
    /// `TripError.badTextValue` naming `field` and the (escaped, shortened) value.
    public static func check(
        _ text: String, field: @autoclosure () -> String, maxBytes: Int, allowEmpty: Bool = true,
        allowsLayout: Bool = false
    ) throws(TripError) -> String {
        func reject(_ reason: String) -> TripError { .badTextValue(field: field(), value: text, reason: reason) }
        if !allowEmpty && text.trimmingSpaces.isEmpty {
            throw reject("is empty; give a name")
        }
        // Printable ASCII, most text: nothing in it to refuse, and its length is its byte count.
        // (A pull checks every text field of thousands of rows.)
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            guard text.utf8.count <= maxBytes else {
                throw reject("is \(text.utf8.count) bytes long; the limit is \(maxBytes) bytes of UTF-8")
            }
            return text
        }
        var bytes = 0
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            bytes += UTF8.width(scalar)
            switch scalar.value {
            case 0: throw reject("contains a NUL byte")
            case 0x09 where allowsLayout, 0x0A where allowsLayout: continue
            case 0x0D where allowsLayout && i + 1 < scalars.count && scalars[i + 1] == "\n": continue
            case 0xFFFD: throw reject("is not valid UTF-8")
            case _ where UnsafeText.isControl(scalar):
                throw reject(
                    "contains the control character \(codePoint(scalar)); only printable text\(allowsLayout ? ", tabs and line breaks are" : " is") accepted"
                )
            default: continue
            }
        }
        if bytes > maxBytes {
            throw reject("is \(bytes) bytes long; the limit is \(maxBytes) bytes of UTF-8")
        }
        return text
    }

    /// `U+001B`.
    static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// One rule for names people retype: trip names, categories and payment methods.
///
/// `  Food ` and `food` are one category, and a trip named `Ｊａｐａｎ` next to `Japan` is a typo,
/// not a second trip. Notes are never changed.
extension TextField {
    /// `text` trimmed, each inner run of white space one space, in Unicode NFC: what is stored.
    ///
    /// NFC comes from the standard library (`_nfcCodeUnits`, the normaliser `String` comparison
    /// itself uses), since FoundationEssentials has none and FoundationInternationalization would
    /// cost every command its start-up time. Control characters are not white space here:
    /// `check` rejects them first.
    public static func tidy(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for c in text {
            if c.isWhitespace && !c.unicodeScalars.contains(where: UnsafeText.isControl) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(c)
        }
        return out.utf8.allSatisfy({ $0 < 0x80 }) ? out : String(decoding: out._nfcCodeUnits, as: UTF8.self)
    }

    /// A category or payment method as stored and compared: `tidy`, then lower case.
    public static func label(_ text: String) -> String {
        let lower = tidy(text).lowercased()
        return lower.utf8.allSatisfy({ $0 < 0x80 }) ? lower : String(decoding: lower._nfcCodeUnits, as: UTF8.self)
    }

    /// What two names are compared by: `label`, with full-width forms (`Ｊａｐａｎ`, U+FF01–U+FF5E)
    /// and the ideographic space read as their ASCII counterparts. Names equal by this key differ
    /// only in case, width or spacing.
    public static func matchKey(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0xFF01...0xFF5E: folded.append(Unicode.Scalar(s.value - 0xFEE0)!)
            case 0x3000: folded.append(" ")
            default: folded.append(s)
            }
        }
        return label(String(folded))
    }
}
