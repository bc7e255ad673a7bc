import TripCore

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
struct BeancountJournal: JournalWriter {
    func header(_ scope: ExportScope) -> String {
        var out = """
            ; trip export: \(scope.description)
            ; One transaction per purchase: payee = note, narration = trip and purchase id.
            ; Expenses:<Category> carries the total paid, in the currency paid, priced with @@ at the home
            ; amount trip used; totals are per home currency and equal `trip report`'s net total.
            ; Unconverted purchases (no rate) are posted to Expenses:Unconverted:<Category> in their own
            ; currency only, outside every home total.

            option "title" "\(BeancountJournal.string("trip export: " + scope.description))"

            """
        for c in scope.homeCurrencies { out += "option \"operating_currency\" \"\(c.code)\"\n" }
        out += "\n"
        for a in scope.accounts { out += "\(a.first) open \(a.name)\n" }
        return out + "\n"
    }

    func entry(_ p: Purchase) -> String {
        let narration = "\(JournalText.oneLine(p.tripName)) #\(p.id)"
        var out = "\(p.date) * \"\(BeancountJournal.string(JournalText.payee(p)))\" \"\(BeancountJournal.string(narration))\"\n"
        for (key, value) in JournalText.metadata(p) { out += "  \(key): \"\(BeancountJournal.string(value))\"\n" }
        out += "  \(JournalText.expenseAccount(p))  \(JournalText.postedAmount(p))\n"
        out += "  \(JournalText.fundingAccount(p))  \(JournalText.balancingAmount(p))\n\n"
        return out
    }

    func trailer(_ summary: ExportSummary, _ scope: ExportScope) -> String {
        JournalText.trailer(summary, scope)
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
