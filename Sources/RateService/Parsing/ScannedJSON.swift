import TripCore

/// A parsed JSON value whose numbers keep their exact source text.
///
/// Objects keep members in document order, duplicates included; `subscript(key:)` reads the first.
/// A date or currency given twice in a provider's response is refused where the observations are
/// collected (`ObservationCollector`).
indirect enum ScannedJSON: Equatable {
    case object([(key: String, value: ScannedJSON)])
    case array([ScannedJSON])
    case string(String)
    /// The number lexeme exactly as written (`1.0`, `17549`, `-2.5e3`).
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: ScannedJSON, rhs: ScannedJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// The first member named `key`, if this is an object.
    subscript(key: String) -> ScannedJSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The kind with its article, for messages ("an object", "a number", …).
    var kindWithArticle: String { "\(EnglishArticle.indefinite(before: kind)) \(kind)" }

    /// Short name of the kind, for messages ("object", "number", …).
    var kind: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}
