import TripCore
import TripModel

/// A Beancount v2 file with the same postings as `LedgerJournal`.
///
/// ```
/// option "operating_currency" "USD"
/// 2026-03-01 open Expenses:Food
/// 2026-03-01 * "Ramen at Ichiran" "Japan 2026 #12"
///   trip: "Japan 2026"
///   Expenses:Food  3240 JPY @@ 21.71 USD
///   Assets:Cash  -21.71 USD
/// ```
///
/// Every account is opened on the date of its first posting (read before streaming, see
/// `ExportScope`). Metadata values are strings; keys start with a lower-case letter.
public struct BeancountJournal: JournalWriter {
    public init() {}

    public func header(_ scope: ExportScope) -> String {
        var out = """
            ; trip export: \(scope.description)
            ; One transaction per purchase: payee = note, narration = trip and purchase id.
            ; Expenses:<Category> carries the total paid, in the currency paid, priced with @@ at the home
            ; amount trip used; totals are per home currency and equal `trip report`'s net total.
            ; Unconverted purchases (no rate) are posted to Expenses:Unconverted:<Category> in their own
            ; currency only, outside every home total.

            """
        if !scope.memberAccounts.isEmpty {
            // Only with members: a trip without them gets exactly the journal it always did.
            out += """
                ; Group trips: Equity:Members:<Name> gets each member's share (debit) minus what they paid
                ; (credit) in the home currency, and transfers credit the member who pays: each account's
                ; balance is minus the member's `trip balances` balance.

                """
        }
        out += """

            option "title" "\(BeancountJournal.string("trip export: " + scope.description))"

            """
        for c in scope.homeCurrencies { out += "option \"operating_currency\" \"\(c.code)\"\n" }
        out += "\n"
        for a in scope.accounts + scope.memberAccounts { out += "\(a.first) open \(a.name)\n" }
        return out + "\n"
    }

    public func entry(_ p: Purchase, members: [(account: String, minor: Int64)]) -> String {
        let narration = "\(JournalText.oneLine(p.tripName)) #\(p.id)"
        var out = "\(p.date) * \"\(BeancountJournal.string(JournalText.payee(p)))\" \"\(BeancountJournal.string(narration))\"\n"
        for (key, value) in JournalText.metadata(p) { out += "  \(key): \"\(BeancountJournal.string(value))\"\n" }
        for (account, amount) in JournalText.postings(p, members: members) { out += "  \(account)  \(amount)\n" }
        return out + "\n"
    }

    public func transfer(_ t: ExportTransfer, home: Int64, from: String, to: String) -> String {
        let narration = "\(JournalText.oneLine(t.tripName)) transfer #\(t.id)"
        var out = "\(t.date) * \"\(BeancountJournal.string(JournalText.payee(t)))\" \"\(BeancountJournal.string(narration))\"\n"
        for (key, value) in JournalText.metadata(t) { out += "  \(key): \"\(BeancountJournal.string(value))\"\n" }
        for (account, amount) in JournalText.postings(t, home: home, from: from, to: to) { out += "  \(account)  \(amount)\n" }
        return out + "\n"
    }

    /// The inside of a Beancount string: one line, `\` and `"` escaped.
    static func string(_ text: String) -> String {
        var out = ""
        for ch in JournalText.oneLine(text) {
            if ch == "\\" || ch == "\"" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
