import TripCore

/// What a journal's header needs to know before the first purchase is streamed: the trips, every
/// currency used, and each account with the date of its first posting. Read with small grouped
/// queries, so its size depends on the number of currencies and categories, not of purchases.
struct ExportScope {
    let trips: [Trip]
    let all: Bool
    /// Home currencies of the trips that have purchases (or of the one trip), by code.
    let homeCurrencies: [Currency]
    /// Every currency a posting uses, home currencies included, by code.
    let currencies: [Currency]
    /// Account name → first posting date, sorted by name.
    let accounts: [(name: String, first: CivilDate)]
    let firstDate: CivilDate?
    /// Group trips: `Equity:Members:<Name>` accounts, each with the date of the export's first entry.
    var memberAccounts: [(name: String, first: CivilDate)] = []

    var description: String {
        all ? "all trips (\(trips.count))" : trips.map { "\"\(JournalText.oneLine($0.name))\"" }.joined()
    }
}

/// The result columns of `exportScope`'s query: one row per kind of posting (its first five
/// columns are the GROUP BY), and its first date.
enum ExportScopeColumn: Int32, ColumnList {
    case currency, homeCurrency, category, paidWith, unconverted, firstDate

    var sql: StaticString {
        switch self {
        case .currency: "p.currency"
        case .homeCurrency: "p.home_currency"
        case .category: "p.category"
        case .paidWith: "p.paid_with"
        case .unconverted: "p.home_minor IS NULL"
        case .firstDate: "min(p.date)"
        }
    }
}

extension Ledger {
    func exportScope(trips: [Trip], all: Bool) throws -> ExportScope {
        let values: [SQLValue] = all ? [] : trips.map { .integer($0.id) }
        var currencies: [String: Currency] = [:]
        var homes: [String: Currency] = [:]
        var accounts: [String: CivilDate] = [:]
        var first: CivilDate?
        // One row per kind of posting; account names are derived here, as in the journals.
        var sql = "SELECT \(ExportScopeColumn.sqlList) FROM purchases p"
        if !all { sql += " WHERE p.trip_id = ?" }
        sql += " GROUP BY p.currency, p.home_currency, p.category, p.paid_with, p.home_minor IS NULL"
        try db.prepare(sql).forEach(values) { statement in
            let s = ResultRow<ExportScopeColumn>(statement)
            let currency = Currency.stored(s.text(.currency)), home = Currency.stored(s.text(.homeCurrency))
            currencies[currency.code] = currency
            homes[home.code] = home
            currencies[home.code] = home
            let date = CivilDate(iso: s.text(.firstDate)) ?? CivilDate(year: 1970, month: 1, day: 1)!
            let expense = JournalText.expenseAccount(category: s.optionalText(.category), converted: s.int(.unconverted) == 0)
            let funding = JournalText.fundingAccount(paidWith: s.optionalText(.paidWith))
            for account in [expense, funding] where accounts[account].map({ date < $0 }) ?? true {
                accounts[account] = date
            }
            if first.map({ date < $0 }) ?? true { first = date }
        }
        if !all, let trip = trips.first, homes.isEmpty {
            homes[trip.homeCurrency.code] = trip.homeCurrency
            currencies[trip.homeCurrency.code] = trip.homeCurrency
        }
        return ExportScope(
            trips: trips, all: all,
            homeCurrencies: homes.values.sorted { $0.code < $1.code },
            currencies: currencies.values.sorted { $0.code < $1.code },
            accounts: accounts.map { (name: $0.key, first: $0.value) }.sorted { $0.name < $1.name },
            firstDate: first)
    }
}
