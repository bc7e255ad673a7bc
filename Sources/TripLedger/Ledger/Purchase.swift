import TripCore

/// A logged purchase: what was paid, in its own currency, its adjustments, and its conversion.
public struct Purchase: Sendable, Equatable {
    public let id: Int64
    public let tripID: Int64
    public let tripName: String
    public let date: CivilDate
    public let note: String
    public let category: String?
    public let paidWith: String?
    public let currency: Currency
    /// The amount as typed, e.g. `3*1200`.
    public let expression: String
    public let inputs: AdjustmentInputs
    public let breakdown: Breakdown
    public let preset: String?
    /// `--rate` given on this purchase.
    public let purchaseRate: String?
    /// `--charged`, in home minor units.
    public let chargedMinor: Int64?
    public let conversion: Conversion
    /// The fields the user set by flag; `nil` when the row did not record them (before m0005, imported).
    public let explicitFields: ExplicitFields?
    /// A purchase, or money received: a refund (of `refundOf`) or a credit. Amounts above are
    /// non-negative either way; `kind.sign` says which way they count.
    public let kind: PurchaseKind
    /// The purchase a refund refunds.
    public let refundOf: Int64?

    /// `total` with its sign: negative for a refund or credit.
    public var signedTotal: Int64 { kind.sign * breakdown.total }
    /// `conversion.home` with its sign: negative for a refund or credit.
    public var signedHome: Int64? { conversion.home.map { kind.sign * $0 } }

    /// The columns `init(row:)` reads, `Column`'s list.
    static let columns = Column.sqlList
    static let from = "FROM purchases p JOIN trips t ON t.id = p.trip_id"

    /// The result columns of `columns`, in order. `PurchaseColumnTests` checks that every column of
    /// `purchases` is here or named as one a purchase does not read.
    enum Column: Int32, ColumnList, BreakdownColumns, ConversionColumns {
        case id, tripID, tripName, date, note, category, paidWith, currency, expression, price, discountSpec, discount
        case serviceSpec, service, taxSpec, taxIncluded, tax, tipSpec, tip, total, rounding, preset, purchaseRate, charged
        case homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider
        case rateFetchedAt, provisional, explicitFields, kind, refundOf

        var sql: StaticString {
            switch self {
            case .id: "p.id"
            case .tripID: "p.trip_id"
            case .tripName: "t.name"
            case .date: "p.date"
            case .note: "p.note"
            case .category: "p.category"
            case .paidWith: "p.paid_with"
            case .currency: "p.currency"
            case .expression: "p.expression"
            case .price: "p.price_minor"
            case .discountSpec: "p.discount_spec"
            case .discount: "p.discount_minor"
            case .serviceSpec: "p.service_spec"
            case .service: "p.service_minor"
            case .taxSpec: "p.tax_spec"
            case .taxIncluded: "p.tax_included"
            case .tax: "p.tax_minor"
            case .tipSpec: "p.tip_spec"
            case .tip: "p.tip_minor"
            case .total: "p.total_minor"
            case .rounding: "p.rounding"
            case .preset: "p.preset"
            case .purchaseRate: "p.purchase_rate"
            case .charged: "p.charged_minor"
            case .homeCurrency: "p.home_currency"
            case .home: "p.home_minor"
            case .homeDiscount: "p.home_discount_minor"
            case .homeService: "p.home_service_minor"
            case .homeTax: "p.home_tax_minor"
            case .homeTip: "p.home_tip_minor"
            case .rate: "p.rate"
            case .rateDate: "p.rate_date"
            case .rateSource: "p.rate_source"
            case .rateProvider: "p.rate_provider"
            case .rateFetchedAt: "p.rate_fetched_at"
            case .provisional: "p.provisional"
            case .explicitFields: "p.explicit_fields"
            case .kind: "p.kind"
            case .refundOf: "p.refund_of"
            }
        }
    }

    init(row: ResultRow<Column>) {
        func spec(_ c: Column) -> AdjustmentSpec? {
            row.optionalText(c).flatMap { try? AdjustmentSpec.parse($0, field: "stored") }
        }
        id = row.int(.id)
        tripID = row.int(.tripID)
        tripName = row.text(.tripName)
        date = CivilDate(iso: row.text(.date)) ?? CivilDate(year: 1970, month: 1, day: 1)!
        note = row.text(.note)
        category = row.optionalText(.category)
        paidWith = row.optionalText(.paidWith)
        currency = .stored(row.text(.currency))
        expression = row.text(.expression)
        let rounding = RoundingMode(rawValue: row.text(.rounding)) ?? .halfUp
        breakdown = Breakdown(stored: row)
        inputs = AdjustmentInputs(
            discount: spec(.discountSpec), service: spec(.serviceSpec), tax: spec(.taxSpec), taxIncluded: breakdown.taxIncluded,
            tip: spec(.tipSpec), rounding: rounding)
        preset = row.optionalText(.preset)
        purchaseRate = row.optionalText(.purchaseRate)
        chargedMinor = row.optionalInt(.charged)
        conversion = Conversion(stored: row)
        explicitFields = row.optionalText(.explicitFields).map(ExplicitFields.init(stored:))
        kind = PurchaseKind(rawValue: row.text(.kind)) ?? .purchase
        refundOf = row.optionalInt(.refundOf)
    }
}

/// What `trip add` or `trip edit` was given, as typed. For `edit`, `nil` means "keep".
///
/// The purchase's own fields are `PurchaseBuilder`'s `PurchaseEntry`, read and written through
/// (`draft.amount`); a draft adds only what the ledger resolves: which trip, and what kind.
@dynamicMemberLookup
public struct PurchaseDraft: Sendable {
    public var entry: PurchaseEntry
    public var trip: String?
    /// `.credit` for `trip add … --refund` (money received with no purchase).
    public var kind: PurchaseKind

    public init(
        amount: String? = nil, currency: String? = nil, note: String? = nil, date: String? = nil,
        category: String? = nil, paidWith: String? = nil, discount: String? = nil, service: String? = nil,
        tax: String? = nil, taxIncluded: Bool? = nil, tip: String? = nil, preset: String? = nil,
        rounding: String? = nil, rate: String? = nil, charged: String? = nil, trip: String? = nil
    ) {
        self.entry = PurchaseEntry(
            amount: amount, currency: currency, note: note, date: date, category: category, paidWith: paidWith, discount: discount,
            service: service, tax: tax, taxIncluded: taxIncluded, tip: tip, preset: preset, rounding: rounding, rate: rate,
            charged: charged)
        self.trip = trip
        self.kind = .purchase
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<PurchaseEntry, Value>) -> Value {
        get { entry[keyPath: field] }
        set { entry[keyPath: field] = newValue }
    }
}

/// Filters of `trip list`.
public struct PurchaseFilter: Sendable {
    public var trip: String?
    public var since: String?
    public var until: String?
    public var category: String?
    /// Keep only the last `limit` purchases in date-then-id order (the most recent ones).
    public var limit: Int?
    /// Newest first (date, then id, descending) instead of oldest first.
    public var reverse: Bool

    public init(
        trip: String? = nil, since: String? = nil, until: String? = nil, category: String? = nil,
        limit: Int? = nil, reverse: Bool = false
    ) {
        self.trip = trip
        self.since = since
        self.until = until
        self.category = category
        self.limit = limit
        self.reverse = reverse
    }
}
