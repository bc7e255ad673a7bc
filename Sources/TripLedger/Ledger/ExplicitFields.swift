import TripCore

/// The adjustment fields of a purchase that the user set by flag, which no preset may overwrite.
///
/// Stored in `purchases.explicit_fields` as the fields' names, comma-separated in `all`'s order;
/// `''` when none was given, NULL when the row did not record it (see `Ledger.explicitFields(of:)`).
public struct ExplicitFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let discount = ExplicitFields(rawValue: 1 << 0)
    public static let service = ExplicitFields(rawValue: 1 << 1)
    public static let tax = ExplicitFields(rawValue: 1 << 2)
    public static let taxIncluded = ExplicitFields(rawValue: 1 << 3)
    public static let tip = ExplicitFields(rawValue: 1 << 4)
    public static let rounding = ExplicitFields(rawValue: 1 << 5)
    public static let preset = ExplicitFields(rawValue: 1 << 6)

    static let all: [(ExplicitFields, String)] = [
        (.discount, "discount"), (.service, "service"), (.tax, "tax"), (.taxIncluded, "tax_included"),
        (.tip, "tip"), (.rounding, "rounding"), (.preset, "preset"),
    ]

    /// The fields a draft gives. `--tax` alone also sets tax-included (to false: the tax is added).
    init(draft d: PurchaseDraft) {
        self = []
        if d.discount != nil { insert(.discount) }
        if d.service != nil { insert(.service) }
        if d.tax != nil { formUnion([.tax, .taxIncluded]) }
        if d.taxIncluded != nil { insert(.taxIncluded) }
        if d.tip != nil { insert(.tip) }
        if d.rounding != nil { insert(.rounding) }
        if d.preset != nil { insert(.preset) }
    }

    /// The stored text; unknown names (from a newer build) are ignored.
    init(stored text: String) {
        let names = Set(text.split(separator: ",").map(String.init))
        self = []
        for (field, name) in Self.all where names.contains(name) { insert(field) }
    }

    public var names: [String] { Self.all.filter { contains($0.0) }.map(\.1) }
    var stored: String { names.joined(separator: ",") }
}
