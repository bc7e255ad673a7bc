import TripCore
import TripModel

/// One column of `purchases`, declared once in `PurchaseColumns.all`: its name, the name the typed
/// column lists read it by, how an insert binds it, whether the user sets it, and how it travels.
package struct PurchaseColumn: DeclaredColumn, Sendable {
    /// How an insert of a `PurchaseRow` binds the column.
    package enum Binding: Sendable {
        /// A value of the row (mostly a field of its `PurchaseValues`).
        case row(@Sendable (PurchaseRow) -> SQLValue)
        /// A value of the row's conversion: re-rating writes it again from a new conversion.
        case conversion(@Sendable (Conversion) -> SQLValue)
        /// When the row was first written (kept by an edit).
        case createdAt
        /// When the row was last written.
        case updatedAt
        /// Not set by an insert; the text says who sets it.
        case notInserted(why: String)
    }

    /// Who decides the column's value.
    package enum Origin: Sendable {
        /// The user: a flag of `trip add` and `trip edit`, a cell of an imported row.
        case entered
        /// `PurchaseBuilder`'s rule, from what the user entered.
        case computed
        /// The ledger: ids, times, import keys.
        case bookkeeping
    }

    /// The column's name in `purchases`.
    package let name: StaticString
    /// The case name of the typed column lists that read it (`Purchase.Column`, `RerateRow.Column`, …).
    package let field: String
    package let binding: Binding
    package let origin: Origin
    /// How the column travels in a shared trip's changes (`WireFormat.purchase`).
    package let wire: WirePayload.Column
    /// What the import fast path appends for the column when it does not write it itself (a column
    /// added after the fast path was written): the value every common export row has. `nil` for the
    /// columns the fast path writes, and for a column whose value the fast path cannot know (the
    /// fast path is then off, `ExportRowImporter.fastColumnsAreCurrent`).
    package let fastImportDefault: SQLValue?
    /// For the column of a `PurchaseTextField`, its position in `PurchaseTextFields.all`.
    package var textField: Int? = nil

    /// Whether `INSERT`'s column list names it (`PurchaseInsert`).
    var isInserted: Bool {
        if case .notInserted = binding { return false }
        return true
    }

    /// The value an insert of `row` binds; `.null` for a column an insert does not set.
    @inline(__always)
    func value(_ row: PurchaseRow, now: String, createdAt: String) -> SQLValue {
        switch binding {
        case .row(let read): read(row)
        case .conversion(let read): read(row.values.conversion)
        case .createdAt: .text(createdAt)
        case .updatedAt: .text(now)
        case .notInserted: .null
        }
    }
}

/// A value as the ledger stores it.
protocol StoredValue {
    var sqlValue: SQLValue { get }
}

extension Int64: StoredValue { var sqlValue: SQLValue { .integer(self) } }
extension String: StoredValue { var sqlValue: SQLValue { .text(self) } }
extension Bool: StoredValue { var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension CivilDate: StoredValue { var sqlValue: SQLValue { .text(description) } }
extension Currency: StoredValue { var sqlValue: SQLValue { .text(code) } }
extension RoundingMode: StoredValue { var sqlValue: SQLValue { .text(rawValue) } }
extension RateSource: StoredValue { var sqlValue: SQLValue { .text(rawValue) } }
extension PurchaseKind: StoredValue { var sqlValue: SQLValue { .text(rawValue) } }
extension Optional: StoredValue where Wrapped: StoredValue {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension PurchaseColumn {
    /// A column an insert binds from `read` of the row (a field of its `PurchaseValues`, mostly).
    static func row<V: StoredValue & SendableMetatype>(
        _ name: StaticString, _ field: String, _ read: @escaping @Sendable (PurchaseRow) -> V, _ origin: Origin,
        _ wire: WireField, fastImportDefault: SQLValue? = nil
    ) -> PurchaseColumn {
        PurchaseColumn(
            name: name, field: field, binding: .row { read($0).sqlValue }, origin: origin, wire: .field(wire),
            fastImportDefault: fastImportDefault)
    }

    /// A column of the stored conversion, bound from `read` of it.
    static func conversion<V: StoredValue & SendableMetatype>(
        _ name: StaticString, _ field: String, _ read: @escaping @Sendable (Conversion) -> V, _ wire: WireField
    ) -> PurchaseColumn {
        PurchaseColumn(
            name: name, field: field, binding: .conversion { read($0).sqlValue }, origin: .computed, wire: .field(wire),
            fastImportDefault: nil)
    }
}

extension PurchaseColumn {
    /// The column of `PurchaseTextFields.all[index]`: entered, travelling as a nullable label (one of
    /// its choices, when it has them), and written by the import's fast path from its cell
    /// (`ExportRowImporter.fastTail`).
    static func text(_ index: Int) -> PurchaseColumn {
        let field = PurchaseTextFields.all[index]
        return PurchaseColumn(
            name: field.column, field: field.key, binding: .row { SQLValue($0.values.texts[index]) }, origin: .entered,
            wire: .field(WireField(field.key, wireType(of: field), nullable: true)), fastImportDefault: nil, textField: index)
    }

    /// What a pulled change may hold in `field`: one of its choices, else a label.
    static func wireType(of field: PurchaseTextField) -> WireType {
        field.choices.isEmpty ? WireFormat.label : .choice(Set(field.choices))
    }
}

/// Every column of `purchases`, each declared once, in the table's order (`pragma_table_info`);
/// the columns of `PurchaseTextFields.all` last, in theirs.
///
/// The insert's column list and values (`PurchaseInsert`, `PurchaseRow.values`), the re-rating
/// update (`PurchaseRerate`), the names the typed read lists select (`Purchase.Column`,
/// `RerateRow.Column`, `ReexpressColumn`, through `PurchaseColumns.named`), the import fast path's
/// check (`ExportRowImporter.fastColumnsAreCurrent`) and the sync payload (`WireFormat.purchase`)
/// are derived from this list. `PurchaseColumnTests` checks it against the migrated table: a
/// column a migration adds and this list does not declare fails there.
enum PurchaseColumns {
    // The wire types `WireFormat` declares its payloads with.
    private static let (timestamp, label, note, spec, signed) = (
        WireFormat.timestamp, WireFormat.label, WireFormat.note, WireFormat.spec, WireFormat.signed
    )

    static let all = written + PurchaseTextFields.all.indices.map(PurchaseColumn.text)

    /// The columns before the text fields', each written out.
    private static let written: [PurchaseColumn] = [
        PurchaseColumn(
            name: "id", field: "id", binding: .notInserted(why: "bound before the row's values: drawn from `id_high_water`"),
            origin: .bookkeeping, wire: .local("id", why: "the local id"), fastImportDefault: nil),
        PurchaseColumn(
            name: "trip_id", field: "tripID", binding: .row { .integer($0.values.tripID) }, origin: .entered,
            wire: .local("trip_id", why: "the local trip; a purchase travels inside its trip's changes"), fastImportDefault: nil),
        .row("date", "date", { $0.values.date }, .entered, WireField("date", .date, required: true)),
        .row("note", "note", { $0.values.note }, .entered, WireField("note", note)),
        .row("category", "category", { $0.values.category }, .entered, WireField("category", label, nullable: true)),
        .row("paid_with", "paidWith", { $0.values.paidWith }, .entered, WireField("paid_with", label, nullable: true)),
        .row("currency", "currency", { $0.values.currency }, .entered, WireField("currency", .currency, required: true)),
        .row("expression", "expression", { $0.values.expression }, .entered, WireField("expression", spec)),
        .row("price_minor", "price", { $0.values.breakdown.price }, .computed, WireField("price_minor", .minor(min: 0), required: true)),
        .row("discount_spec", "discountSpec", { $0.values.inputs.discount?.description }, .entered, WireField("discount_spec", spec, nullable: true)),
        .row("discount_minor", "discount", { $0.values.breakdown.discount }, .computed, WireField("discount_minor", signed)),
        .row("service_spec", "serviceSpec", { $0.values.inputs.service?.description }, .entered, WireField("service_spec", spec, nullable: true)),
        .row("service_minor", "service", { $0.values.breakdown.service }, .computed, WireField("service_minor", signed)),
        .row("tax_spec", "taxSpec", { $0.values.inputs.tax?.description }, .entered, WireField("tax_spec", spec, nullable: true)),
        .row("tax_included", "taxIncluded", { $0.values.inputs.taxIncluded }, .entered, WireField("tax_included", .flag)),
        .row("tax_minor", "tax", { $0.values.breakdown.tax }, .computed, WireField("tax_minor", signed)),
        .row("tip_spec", "tipSpec", { $0.values.inputs.tip?.description }, .entered, WireField("tip_spec", spec, nullable: true)),
        .row("tip_minor", "tip", { $0.values.breakdown.tip }, .computed, WireField("tip_minor", signed)),
        .row("total_minor", "total", { $0.values.breakdown.total }, .computed, WireField("total_minor", signed)),
        .row("rounding", "rounding", { $0.values.inputs.rounding }, .entered, WireField("rounding", .text(max: 32))),
        .row("preset", "preset", { $0.values.preset }, .entered, WireField("preset", label, nullable: true)),
        .row("purchase_rate", "purchaseRate", { $0.values.purchaseRate }, .entered, WireField("purchase_rate", .rate, nullable: true)),
        .row("charged_minor", "charged", { $0.values.charged }, .entered, WireField("charged_minor", signed, nullable: true)),
        .conversion("home_currency", "homeCurrency", { $0.homeCurrency }, WireField("home_currency", .currency, required: true)),
        .conversion("home_minor", "home", { $0.home }, WireField("home_minor", signed, nullable: true)),
        .conversion("home_discount_minor", "homeDiscount", { $0.homeDiscount }, WireField("home_discount_minor", signed, nullable: true)),
        .conversion("home_service_minor", "homeService", { $0.homeService }, WireField("home_service_minor", signed, nullable: true)),
        .conversion("home_tax_minor", "homeTax", { $0.homeTax }, WireField("home_tax_minor", signed, nullable: true)),
        .conversion("home_tip_minor", "homeTip", { $0.homeTip }, WireField("home_tip_minor", signed, nullable: true)),
        .conversion("rate", "rate", { $0.quote?.rate }, WireField("rate", .rate, nullable: true)),
        .conversion("rate_date", "rateDate", { $0.quote?.date }, WireField("rate_date", .date, nullable: true)),
        .conversion(
            "rate_source", "rateSource", { $0.source },
            WireField("rate_source", .choice(["identity", "manual", "charged", "provider", "fallback", "none"]))),
        .conversion("rate_provider", "rateProvider", { $0.quote?.provider }, WireField("rate_provider", label, nullable: true)),
        .conversion("rate_fetched_at", "rateFetchedAt", { $0.quote?.fetchedAt }, WireField("rate_fetched_at", timestamp, nullable: true)),
        .conversion("provisional", "provisional", { $0.provisional }, WireField("provisional", .flag)),
        PurchaseColumn(
            name: "created_at", field: "createdAt", binding: .createdAt, origin: .bookkeeping,
            wire: .field(WireField("created_at", timestamp)), fastImportDefault: nil),
        PurchaseColumn(
            name: "updated_at", field: "updatedAt", binding: .updatedAt, origin: .bookkeeping,
            wire: .field(WireField("updated_at", timestamp)), fastImportDefault: nil),
        PurchaseColumn(
            name: "import_key", field: "importKey",
            binding: .notInserted(why: "set by the importer's batch insert and kept by edit, by their own statements"),
            origin: .bookkeeping, wire: .local("import_key", why: "this ledger's import's key of the row it came from"),
            fastImportDefault: nil),
        .row("explicit_fields", "explicitFields", { $0.values.explicit?.stored }, .entered, WireField("explicit_fields", spec, nullable: true)),
        .row("kind", "kind", { $0.kind }, .entered, WireField("kind", .choice(["purchase", "refund", "credit"]))),
        PurchaseColumn(
            name: "refund_of", field: "refundOf", binding: .row { SQLValue($0.refundOf) }, origin: .entered,
            wire: .local(
                "refund_of", why: "the local id of the refunded purchase; travels as `refund_of`, its global id, after the columns"),
            fastImportDefault: nil),
        PurchaseColumn(
            name: "charged_source", field: "chargedSource",
            binding: .notInserted(why: "set by a statement's reconcile and kept by edit, by their own statements (m0023)"),
            origin: .bookkeeping, wire: .field(WireField("charged_source", label, nullable: true)), fastImportDefault: nil),
    ]

    /// Each column by its `field` name.
    static let named: [String: PurchaseColumn] = Dictionary(uniqueKeysWithValues: all.map { ($0.field, $0) })

    /// The column a typed list's case `c` names, by its case name. Stops the process for a case no
    /// column has (`PurchaseColumnTests.subsetsNameOnlyPurchaseColumns` keeps them apart).
    static func column(_ c: some ColumnList) -> PurchaseColumn {
        // The case's name from the runtime's enum metadata, which `String(describing:)` reads too,
        // but only after looking for a `description` and a custom mirror: lookups that scan every
        // protocol conformance of the binary the first time for each type, 0.2 ms of each
        // `trip add` (docs/benchmarks.md, "The restructure as a whole").
        guard let name = enumCaseName(c) else { return named[String(describing: c)]! }
        return named[String(cString: name)]!
    }
}

/// The Swift runtime's name of an enum value's case (the entry point `String(describing:)` ends in
/// for an enum with no `description`); `nil` for a value that is not an enum case.
@_silgen_name("swift_EnumCaseName")
private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// The columns an insert of a `PurchaseRow` sets, in `PurchaseColumns.all`'s order.
package enum PurchaseInsert: ColumnTable {
    package static let targets = PurchaseColumns.all.filter(\.isInserted)
}

/// The columns of `PurchaseTextFields.all`, which a purchase's read selects after `Purchase.Column`'s.
enum PurchaseTextColumns: ColumnTable {
    static let targets = PurchaseColumns.all.filter { $0.textField != nil }
}

/// The columns re-rating rewrites: the stored conversion but its home currency (which a new rate
/// does not change), and the update time.
enum PurchaseRerate: ColumnTable {
    static let targets = PurchaseColumns.all.filter {
        switch $0.binding {
        case .conversion: $0.field != "homeCurrency"
        case .updatedAt: true
        default: false
        }
    }
}
