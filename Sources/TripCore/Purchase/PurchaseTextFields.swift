/// A short text the traveller gives a purchase and no rule computes with: a receipt number, an
/// employer's cost centre, a claim reference; or one of a few words, its `choices` (a claim's status).
///
/// Declared once, in `PurchaseTextFields.all`, a field is everything else by derivation: its column
/// in `purchases` (`PurchaseColumns`), the value `PurchaseBuilder` keeps (given, else the edited
/// purchase's), its key in `--format json` and its column at the end of every CSV (`PurchaseCSV`),
/// both import paths, and its field in a shared trip's changes (`WireFormat.purchase`). What is
/// written by hand is its migration and the flag that takes it (README, "Adding a purchase field").
public struct PurchaseTextField: Sendable {
    /// The field's name everywhere: the column of `purchases`, the JSON key, the CSV column and the
    /// wire field.
    public let column: StaticString
    /// When not empty, the only values the field takes, each stored as spelled here whatever the
    /// case it was typed in (`draft`, `submitted`, `paid`). Its rule on every way in: `trip add` and
    /// `edit`, both import paths, and a pulled change (`WireType.choice`).
    public let choices: [String]

    public init(_ column: StaticString, choices: [String] = []) {
        self.column = column
        self.choices = choices
    }

    /// `column` as text.
    public var key: String { column.description }

    /// How an error names it: the flag's name, `_` spelled `-` (`cost-centre`).
    public var flag: String { String(key.map { $0 == "_" ? "-" : $0 }) }

    /// The value as stored: `TextField.check`ed (printable, at most `TextField.labelMaxBytes`) and
    /// `TextField.tidy`'d, with its case kept, or the choice it names in any case; `nil` when that
    /// leaves nothing (an empty text clears it).
    public func value(_ text: String) throws(TripError) -> String? {
        let tidy = TextField.tidy(try TextField.check(text, field: flag, maxBytes: TextField.labelMaxBytes))
        guard !tidy.isEmpty else { return nil }
        guard !choices.isEmpty else { return tidy }
        let lowered = tidy.lowercased()
        guard let choice = choices.first(where: { $0.lowercased() == lowered }) else {
            throw .badChoice(field: flag, value: tidy, allowed: choices)
        }
        return choice
    }

    /// Whether `value` would store these bytes unchanged: tidy text (`isTidyText`) and, for a field
    /// with choices, one of them as spelled. The import's fast path takes such a cell as it is and
    /// leaves any other to the general path.
    public func isStoredAsIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.isTidyText(bytes) && (choices.isEmpty || choices.contains { $0.utf8.elementsEqual(bytes) })
    }

    /// Printable ASCII, at most the limit, no space at either end and none doubled: what `value`
    /// stores unchanged when the field has no choices.
    public static func isTidyText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= TextField.labelMaxBytes, bytes.first != 0x20, bytes.last != 0x20 else {
            return false
        }
        var previous: UInt8 = 0
        for b in bytes {
            guard b >= 0x20 && b < 0x7F, !(b == 0x20 && previous == 0x20) else { return false }
            previous = b
        }
        return true
    }
}

/// Every `PurchaseTextField`, in the order their migrations add their columns: these columns are the
/// last of `purchases` (`PurchaseColumnTests` checks the table's order).
public enum PurchaseTextFields {
    public static let all: [PurchaseTextField] = []

    /// The position in `all` of the field named `key`.
    public static func index(of key: String) -> Int? { all.firstIndex { $0.key == key } }
}

/// A purchase's values of `PurchaseTextFields.all`, by position; `nil` where it has none.
public struct PurchaseTexts: Sendable, Equatable {
    public private(set) var values: [String?]

    /// None set. With no field declared this holds an empty array, which allocates nothing.
    public init() { values = PurchaseTextFields.all.isEmpty ? [] : Array(repeating: nil, count: PurchaseTextFields.all.count) }

    /// The values by position in `PurchaseTextFields.all`, one per field.
    public init(values: [String?]) {
        precondition(values.count == PurchaseTextFields.all.count, "one value per PurchaseTextFields.all")
        self.values = values
    }

    public subscript(_ index: Int) -> String? {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// The value of the field named `key`; `nil` also for a key no field has.
    public subscript(key key: String) -> String? { PurchaseTextFields.index(of: key).flatMap { values[$0] } }

    /// Whether any field has a value.
    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }
}
