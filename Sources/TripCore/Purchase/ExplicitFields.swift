/// The adjustment fields of a purchase that the user set by flag, which no preset may overwrite.
///
/// Stored in `purchases.explicit_fields` as the fields' names, comma-separated in `all`'s order;
/// `''` when none was given, NULL when the row did not record it (see
/// `PriorPurchase.explicitFields(settings:)`).
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

    /// The fields an entry gives. `--tax` alone also sets tax-included (to false: the tax is added).
    public init(given entry: PurchaseEntry) {
        self = []
        if entry.discount != nil { insert(.discount) }
        if entry.service != nil { insert(.service) }
        if entry.tax != nil { formUnion([.tax, .taxIncluded]) }
        if entry.taxIncluded != nil { insert(.taxIncluded) }
        if entry.tip != nil { insert(.tip) }
        if entry.rounding != nil { insert(.rounding) }
        if entry.preset != nil { insert(.preset) }
    }

    /// The stored text; unknown names (from a newer build) are ignored.
    public init(stored text: String) {
        let names = Set(text.split(separator: ",").map(String.init))
        self = []
        for (field, name) in Self.all where names.contains(name) { insert(field) }
    }

    public var names: [String] { Self.all.filter { contains($0.0) }.map(\.1) }
    public var stored: String { names.joined(separator: ",") }
}
