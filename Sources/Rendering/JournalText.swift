import TripCore
import TripModel

/// Account names and free text as the ledger and Beancount journals write them: the same in both,
/// so the two files describe the same postings.
///
/// Account segments are words of letters and digits, each capitalised, joined with `-`
/// (`street food` → `Street-Food`): valid in ledger, hledger and Beancount alike (no spaces, no
/// `:`, a capital or digit first). Free text keeps its words but loses everything that could end a
/// field early: control and format characters, line breaks, and `;` (a comment in ledger).
public enum JournalText {
    /// The last line of both journal formats (`;` starts a comment in each): count and home totals.
    static func trailer(_ summary: ExportSummary, _ scope: ExportScope) -> String {
        let totals = scope.homeCurrencies.map { money(summary.homeTotals[$0.code] ?? 0, $0) }
        return "; \(summary.purchases) purchases; home totals: \(totals.joined(separator: ", ")); unconverted: \(summary.unconverted)\n"
    }

    /// `Expenses:<Category>`, `Expenses:Uncategorized`, or `Expenses:Unconverted:<Category>` for a
    /// purchase with no home amount.
    static func expenseAccount(_ p: Purchase) -> String {
        expenseAccount(category: p.category, converted: p.conversion.home != nil)
    }

    public static func expenseAccount(category: String?, converted: Bool) -> String {
        let name = segment(category) ?? "Uncategorized"
        return converted ? "Expenses:\(name)" : "Expenses:Unconverted:\(name)"
    }

    /// Where the money came from: `card` is a liability (`Liabilities:Card`); none or `cash` is
    /// `Assets:Cash`; any other means is `Assets:<PaidWith>`.
    static func fundingAccount(_ p: Purchase) -> String { fundingAccount(paidWith: p.paidWith) }

    public static func fundingAccount(paidWith: String?) -> String {
        guard let name = segment(paidWith) else { return "Assets:Cash" }
        return name == "Card" ? "Liabilities:Card" : "Assets:\(name)"
    }

    /// One account-name segment from free text, or nil when it has no letter or digit.
    public static func segment(_ text: String?) -> String? {
        guard let text else { return nil }
        var words: [String] = []
        var word = ""
        for ch in text {
            if ch.isLetter || ch.isNumber {
                word.append(ch)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return nil }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// Free text on one line: control, format and line-break characters become spaces, `;`
    /// becomes `,`, runs of spaces become one, and the ends are trimmed.
    public static func oneLine(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            let isSpace =
                scalar.properties.isWhitespace || UnsafeText.isUnsafe(scalar) || category == .lineSeparator
                || category == .paragraphSeparator
            if isSpace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.unicodeScalars.append(scalar == ";" ? "," : scalar)
        }
        return out
    }

    /// The transaction's description: the note on one line, or `no note`.
    static func payee(_ p: Purchase) -> String {
        let text = oneLine(p.note)
        return text.isEmpty ? "no note" : text
    }

    static func money(_ minor: Int64, _ currency: Currency) -> String {
        "\(Money(minorUnits: minor, currency: currency).plainText) \(currency.code)"
    }

    /// The posted amount and, for a foreign-currency purchase, its total price in home currency
    /// (`3240 JPY @@ 21.71 USD`). A home-currency purchase posts its home amount (which a `--charged`
    /// amount may have made differ from its total). Unconverted: the total in its own currency only.
    /// A refund or credit posts negative amounts (`-4000 JPY @@ 28.00 USD`: the `@@` total price is
    /// unsigned in ledger, hledger and Beancount alike, the sign is the amount's), so `-B` nets it.
    static func postedAmount(_ p: Purchase) -> String {
        let home = p.conversion.homeCurrency
        guard let homeMinor = p.conversion.home else { return money(p.signedTotal, p.currency) }
        if p.currency.code == home.code { return money(p.kind.sign * homeMinor, home) }
        return "\(money(p.signedTotal, p.currency)) @@ \(money(homeMinor, home))"
    }

    /// The balancing amount, written out: minus the home amount, or minus the original total when
    /// unconverted.
    static func balancingAmount(_ p: Purchase) -> String {
        guard let homeMinor = p.signedHome else { return money(-p.signedTotal, p.currency) }
        return money(-homeMinor, p.conversion.homeCurrency)
    }

    /// The postings of `p`, as (account, amount) in order: the expense, the funding, then each
    /// member's (`members`, empty outside group trips, in its home currency).
    static func postings(_ p: Purchase, members: [(account: String, minor: Int64)]) -> [(account: String, amount: String)] {
        [(expenseAccount(p), postedAmount(p)), (fundingAccount(p), balancingAmount(p))]
            + members.map { ($0.account, money($0.minor, p.conversion.homeCurrency)) }
    }

    /// The postings of a converted transfer: the member who pays is credited, the one paid debited.
    static func postings(_ t: ExportTransfer, home: Int64, from: String, to: String) -> [(account: String, amount: String)] {
        [(from, money(-home, t.homeCurrency)), (to, money(home, t.homeCurrency))]
    }

    /// The purchase's metadata, as (key, value) pairs, in a fixed order. Values are one line.
    static func metadata(_ p: Purchase) -> [(String, String)] {
        var out: [(String, String)] = [("trip", oneLine(p.tripName)), ("purchase", String(p.id))]
        if p.kind != .purchase { out.append(("kind", p.kind.rawValue)) }
        if let of = p.refundOf { out.append(("refund_of", String(of))) }
        if p.currency.code == p.conversion.homeCurrency.code, let home = p.conversion.home, home != p.breakdown.total {
            out.append(("paid", money(p.breakdown.total, p.currency)))
        }
        let q = p.conversion.quote
        if let q, p.conversion.source != .identity {
            out.append(("rate", "\(q.rate) \(p.conversion.homeCurrency.code) per \(p.currency.code)"))
        }
        out.append(("rate_source", p.conversion.source.rawValue))
        if let date = q?.date { out.append(("rate_date", date.description)) }
        if let provider = q?.provider { out.append(("rate_provider", oneLine(provider))) }
        if p.conversion.source != .identity && p.conversion.provisional { out.append(("provisional", "true")) }
        return out
    }

    /// Each member's account, `Equity:Members:<Name>`, by member id: in partnership terms the
    /// member's capital account, credited with what they pay and debited with their share. Unique
    /// within `members` (one trip's): two names may make the same segment (`ana b`, `ana-b`), and
    /// some make none, or one Beancount refuses (its components start with a capital or a digit).
    public static func memberAccounts(_ members: [Member]) -> [Int64: String] {
        var accounts: [Int64: String] = [:]
        var taken: Set<String> = []
        for m in members {
            var name =
                segment(m.name).flatMap { s in
                    s.first.map { $0.isUppercase || $0.isASCII && $0.isNumber } == true ? s : nil
                } ?? "Member-\(m.id)"
            if !taken.insert(name.lowercased()).inserted {
                name += "-\(m.id)"
                taken.insert(name.lowercased())
            }
            accounts[m.id] = "Equity:Members:\(name)"
        }
        return accounts
    }

    /// A transfer's description: `Carla pays Ana`, then its note.
    static func payee(_ t: ExportTransfer) -> String {
        let note = oneLine(t.note)
        return "\(oneLine(t.from.name)) pays \(oneLine(t.to.name))" + (note.isEmpty ? "" : ", \(note)")
    }

    /// A transfer's metadata, like a purchase's: its trip and id, the amount paid, and its rate.
    static func metadata(_ t: ExportTransfer) -> [(String, String)] {
        var out: [(String, String)] = [("trip", oneLine(t.tripName)), ("transfer", String(t.id))]
        if t.amount.currency.code != t.homeCurrency.code {
            out.append(("paid", money(t.amount.minorUnits, t.amount.currency)))
        }
        if let q = t.quote, q.source != .identity {
            out.append(("rate", "\(q.rate) \(t.homeCurrency.code) per \(t.amount.currency.code)"))
        }
        out.append(("rate_source", t.quote?.source.rawValue ?? RateSource.none.rawValue))
        if let date = t.quote?.date { out.append(("rate_date", date.description)) }
        if let provider = t.quote?.provider { out.append(("rate_provider", oneLine(provider))) }
        return out
    }
}
