/// A card statement's layout as `StatementInference` decided it from the file alone: where the
/// table starts, which column is which, how amounts and dates are written and which rows are not
/// spending. Every field was decided by the file (or by an option the user gave); nothing here is a
/// default that happened to fit.
public struct StatementLayout: Sendable, Equatable {
    /// What a row is, as a profile's `[rows]` says it.
    public enum RowKind: Sendable, Hashable {
        case purchase, refund, fee
        /// Not spending (a payment to the card, a transfer): skipped and counted under this label.
        case skip(String)
    }

    /// A row kind and the cell values (or `*` patterns) that mean it, in the order they are tried.
    public struct RowRule: Sendable, Equatable {
        public let kind: RowKind
        public let patterns: [String]
    }

    public var delimiter: UInt8
    /// The header's record number (0-based): the records before it are the preamble.
    public var headerIndex: Int
    public var header: [String]
    public var date: String
    /// The patterns that read the date column, in the order they are tried on each cell; the rows
    /// ruled out the other day/month order (`DateChoice`).
    public var datePatterns: [DatePattern]
    /// One signed amount column, or `paidOut` and `paidIn` (two unsigned columns).
    public var amount: String?
    public var paidOut: String?
    public var paidIn: String?
    /// `.` or `,`: the mark the amounts' decimals follow; `nil` when no amount has decimals or groups.
    public var decimalMark: Character?
    /// With one amount column and no direction column: how spending is signed.
    public var spendingNegative: Bool?
    /// A column saying which way money went, and its values for money out and money in.
    public var direction: String?
    public var moneyOut: [String] = []
    public var moneyIn: [String] = []
    public var currency: String?
    public var note: String?
    /// The merchant's amount and currency of a foreign row, beside the account's amount.
    public var foreignAmount: String?
    public var foreignCurrency: String?
    /// The column whose values say what a row is; `rows` then names those values.
    public var type: String?
    public var state: String?
    public var pending: [String] = []
    public var notCompleted: [String] = []
    public var rows: [RowRule] = []
    /// Money in that is neither a payment to the card nor a refund by its description, and whose
    /// description no spending row of the file has, is skipped (a salary), not taken for a refund.
    public var skipsOtherMoneyIn = true
    /// Why the sign of spending is what it is (`"payments to the card"`, `"the majority"`, `"--spending"`).
    public var signReason: String?

    /// The mapping in one line, as `trip import` prints it:
    /// `date "Transaction Date" (month/day, MM/DD/YYYY), amount "Amount" (spending negative, decimal point), description "Description"`.
    public var summary: String {
        var parts: [String] = []
        let orders = Set(datePatterns.compactMap(\.order))
        let order = orders.count == 1 ? (orders.first == .dayFirst ? "day/month, " : "month/day, ") : ""
        parts.append("date \(quoted(date)) (\(order)\(datePatterns.map(\.description).joined(separator: " or ")))")
        let mark = decimalMark.map { $0 == "," ? "decimal comma" : "decimal point" } ?? "whole numbers"
        if let amount {
            let sign =
                direction.map { "direction \(quoted($0))" }
                ?? (spendingNegative == true ? "spending negative" : "spending positive")
            parts.append("amount \(quoted(amount)) (\(sign), \(mark))")
        } else if let paidOut, let paidIn {
            parts.append("money out \(quoted(paidOut)), money in \(quoted(paidIn)) (\(mark))")
        }
        if let currency { parts.append("currency \(quoted(currency))") }
        if let foreignAmount { parts.append("original amount \(quoted(foreignAmount))") }
        if let note { parts.append("description \(quoted(note))") }
        if let type { parts.append("row type \(quoted(type))") }
        if let state { parts.append("status \(quoted(state))") }
        return parts.joined(separator: ", ")
    }
}
