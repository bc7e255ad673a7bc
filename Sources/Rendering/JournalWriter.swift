import TripCore
import TripModel

/// One of the journal formats of `trip export` (`LedgerJournal`, `BeancountJournal`): a header
/// from the scope, one entry per purchase as it streams, the transfers, a trailer.
public protocol JournalWriter {
    func header(_ scope: ExportScope) -> String
    /// `members`: the purchase's member postings in its home currency, empty outside group trips.
    func entry(_ p: Purchase, members: [(account: String, minor: Int64)]) -> String
    /// A transfer between two members, converted: two member postings in the home currency.
    func transfer(_ t: ExportTransfer, home: Int64, from: String, to: String) -> String
    func trailer(_ summary: ExportSummary, _ scope: ExportScope) -> String
}

extension JournalWriter {
    /// The same last line in both formats (`;` starts a comment in each): count and home totals.
    public func trailer(_ summary: ExportSummary, _ scope: ExportScope) -> String {
        JournalText.trailer(summary, scope)
    }

    /// A transfer with no rate, as a comment: like an unconverted purchase it is in no balance, so
    /// in no member posting either.
    public func unconvertedTransfer(_ t: ExportTransfer) -> String {
        "; transfer \(t.id): \(JournalText.money(t.amount.minorUnits, t.amount.currency)) from "
            + "\(JournalText.oneLine(t.from.name)) to \(JournalText.oneLine(t.to.name)) has no rate; "
            + "it is in no member balance\n\n"
    }
}

/// What a journal's header needs to know before the first purchase is streamed: the trips, every
/// currency used, and each account with the date of its first posting. The ledger reads it with
/// small grouped queries, so its size depends on the number of currencies and categories, not of
/// purchases.
public struct ExportScope {
    public let trips: [Trip]
    public let all: Bool
    /// Home currencies of the trips that have purchases (or of the one trip), by code.
    public let homeCurrencies: [Currency]
    /// Every currency a posting uses, home currencies included, by code.
    public let currencies: [Currency]
    /// Account name → first posting date, sorted by name.
    public let accounts: [(name: String, first: CivilDate)]
    public let firstDate: CivilDate?
    /// Group trips: `Equity:Members:<Name>` accounts, each with the date of the export's first entry.
    public var memberAccounts: [(name: String, first: CivilDate)] = []

    public init(
        trips: [Trip], all: Bool, homeCurrencies: [Currency], currencies: [Currency], accounts: [(name: String, first: CivilDate)],
        firstDate: CivilDate?
    ) {
        self.trips = trips
        self.all = all
        self.homeCurrencies = homeCurrencies
        self.currencies = currencies
        self.accounts = accounts
        self.firstDate = firstDate
    }

    var description: String {
        all ? "all trips (\(trips.count))" : trips.map { "\"\(JournalText.oneLine($0.name))\"" }.joined()
    }
}
