import TripCore
import TripModel

/// A plain-text journal that ledger-cli 3.3 and hledger 1.25 both read, one transaction per purchase.
///
/// ```
/// 2026-03-01 * (12) Ramen at Ichiran
///     ; trip: Japan 2026
///     ; rate: 0.0067 USD per JPY
///     Expenses:Food  3240 JPY @@ 21.71 USD
///     Assets:Cash  -21.71 USD
/// ```
///
/// Choices that both tools accept: the code `(id)` after the status, so a note starting with `(`
/// is not read as a code; amounts as `NUMBER CODE`, `.` decimal mark, no grouping; the balancing
/// posting written out in home currency (both check it against the `@@` total price); one
/// `commodity 1,000.00 USD` line per currency, where a currency without minor units is written
/// `1,000. JPY` (hledger reads `1,000 JPY` as three decimals with a decimal comma; ledger accepts
/// both one-line forms and keeps the precision of the amounts as written).
public struct LedgerJournal: JournalWriter {
    public init() {}

    public func header(_ scope: ExportScope) -> String {
        let homes = scope.homeCurrencies.map(\.code).joined(separator: ", ")
        var out = """
            ; trip export: \(scope.description), home currency \(homes.isEmpty ? "none" : homes)
            ; One transaction per purchase, dated the purchase date; the code in parentheses is the purchase id.
            ; Expenses:<Category> carries the total paid, in the currency paid, priced with @@ at the home
            ; amount trip used (round(total x rate)); purchases in the home currency have no @@.
            ; Totals are per home currency: `hledger -f FILE bal expenses -B` and
            ; `ledger -f FILE bal ^Expenses -B` print, for each home currency, `trip report`'s net total.
            ; Unconverted purchases (no rate) are posted to Expenses:Unconverted:<Category> in their own
            ; currency only, with no @@: -B leaves them in that currency, outside every home total.
            ; Amounts: "." decimal mark, no grouping, the currency's ISO 4217 minor digits.

            """
        if !scope.memberAccounts.isEmpty {
            // Only with members: a trip without them gets exactly the journal it always did.
            out += """
                ; Group trips: Equity:Members:<Name> gets each member's share (debit) minus what they paid
                ; (credit) in the home currency, and transfers (code T<id>) credit the member who pays; so
                ; `hledger -f FILE bal ^Equity:Members: --invert` and `ledger -f FILE bal ^Equity:Members: --invert`
                ; print each member's `trip balances` balance.

                """
        }
        for c in scope.currencies { out += "commodity \(LedgerJournal.commodityFormat(c))\n" }
        return out + "\n"
    }

    /// `1,000.00 USD`, `1,000. JPY`, `1,000.000 KWD`.
    static func commodityFormat(_ c: Currency) -> String {
        "1,000.\(String(repeating: "0", count: c.minorUnits)) \(c.code)"
    }

    public func entry(_ p: Purchase, members: [(account: String, minor: Int64)]) -> String {
        var out = "\(p.date) * (\(p.id)) \(JournalText.payee(p))\n"
        for (key, value) in JournalText.metadata(p) { out += "    ; \(key): \(value)\n" }
        for (account, amount) in JournalText.postings(p, members: members) { out += "    \(account)  \(amount)\n" }
        return out + "\n"
    }

    public func transfer(_ t: ExportTransfer, home: Int64, from: String, to: String) -> String {
        var out = "\(t.date) * (T\(t.id)) \(JournalText.payee(t))\n"
        for (key, value) in JournalText.metadata(t) { out += "    ; \(key): \(value)\n" }
        for (account, amount) in JournalText.postings(t, home: home, from: from, to: to) { out += "    \(account)  \(amount)\n" }
        return out + "\n"
    }
}
