import TripCore

/// A statement's columns that include a purchase's stored conversion (`purchases.home_currency` …
/// `purchases.provisional`), so that `Conversion(stored:)` reads them by name whatever else the
/// statement selects. Each conforming list declares these cases (an enum case is the static member).
protocol ConversionColumns: ColumnList {
    static var homeCurrency: Self { get }
    static var home: Self { get }
    static var homeDiscount: Self { get }
    static var homeService: Self { get }
    static var homeTax: Self { get }
    static var homeTip: Self { get }
    static var rate: Self { get }
    static var rateDate: Self { get }
    static var rateSource: Self { get }
    static var rateProvider: Self { get }
    static var rateFetchedAt: Self { get }
    static var provisional: Self { get }
}

extension Conversion {
    /// The conversion stored in the row's purchase columns.
    init<C: ConversionColumns>(stored row: ResultRow<C>) {
        let source = RateSource(rawValue: row.text(.rateSource)) ?? .none
        let quote =
            source == .none
            ? nil
            : RateQuote(
                rate: row.optionalText(.rate) ?? "", date: row.optionalText(.rateDate).flatMap { CivilDate(iso: $0) },
                source: source, provider: row.optionalText(.rateProvider), fetchedAt: row.optionalText(.rateFetchedAt),
                provisional: row.int(.provisional) == 1)
        self.init(
            homeCurrency: .stored(row.text(.homeCurrency)), home: row.optionalInt(.home),
            homeDiscount: row.optionalInt(.homeDiscount), homeService: row.optionalInt(.homeService),
            homeTax: row.optionalInt(.homeTax), homeTip: row.optionalInt(.homeTip), quote: quote)
    }
}

/// The columns of a statement that reads a purchase's stored breakdown.
protocol BreakdownColumns: ColumnList {
    static var price: Self { get }
    static var discount: Self { get }
    static var service: Self { get }
    static var tax: Self { get }
    static var taxIncluded: Self { get }
    static var tip: Self { get }
    static var total: Self { get }
}

extension Breakdown {
    /// The breakdown stored in the row's purchase columns (the subtotal is not stored).
    init<C: BreakdownColumns>(stored row: ResultRow<C>) {
        let price = row.int(.price), discount = row.int(.discount)
        self.init(
            price: price, discount: discount, subtotal: price - discount, service: row.int(.service), tax: row.int(.tax),
            taxIncluded: row.int(.taxIncluded) == 1, tip: row.int(.tip), total: row.int(.total))
    }
}
