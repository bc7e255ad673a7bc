import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

/// The facts a journal's header needs (`ExportScope`), read before the first purchase streams.
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
