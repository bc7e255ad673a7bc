import TripCore
import TripModel

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

extension Ledger {
    func exportScope(trips: [Trip], all: Bool) throws -> ExportScope {
        var currencies: [String: Currency] = [:]
        var homes: [String: Currency] = [:]
        var accounts: [String: CivilDate] = [:]
        var first: CivilDate?
        // One row per kind of posting; account names are derived here, as in the journals.
        try purchaseStore.forEachExportScope(trips: all ? nil : trips.map(\.id)) { s in
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
