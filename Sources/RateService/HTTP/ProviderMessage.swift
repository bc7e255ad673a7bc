import TripCore

/// The provider's own explanation in an error body, if it gave one.
enum ProviderMessage {
    /// Longest message kept; longer ones are cut with "…".
    static let maxLength = 200

    /// The first string among `message`, `error`, `error-type`, `detail` (or `error.message`)
    /// of a JSON object body; nil for anything else. Control and format characters
    /// (`UnsafeText.isUnsafe`) are dropped so that a hostile body cannot move the terminal cursor.
    static func extract(from body: [UInt8]) -> String? {
        guard body.count <= 64 << 10, case let .object(members)? = try? JSONScanner.parse(body) else { return nil }
        for key in ["message", "error", "error-type", "detail"] {
            switch members.first(where: { $0.key == key })?.value {
            case let .string(text)?: return clean(text)
            case let .object(inner)?:
                if case let .string(text)? = inner.first(where: { $0.key == "message" })?.value { return clean(text) }
            default: continue
            }
        }
        return nil
    }

    static func clean(_ text: String) -> String? {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { !UnsafeText.isUnsafe($0) }))
        guard !printable.isEmpty else { return nil }
        return printable.count > maxLength ? printable.prefix(maxLength) + "…" : printable
    }
}
