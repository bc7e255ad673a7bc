import Embedded
import Storage
import TripCore
import TripLedger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bank's statement layout, as data: which columns hold the date, amount, currency and
/// description, how signs are written, and which rows are purchases, money back, fees or not
/// spending at all. Shipped in `config/profile-NAME.toml` (one file per layout, like hledger's
/// rules files); a user's own in `~/.config/trip/profiles/NAME.toml`, same keys (README, "Import").
///
/// Column names may end in `(*)` to match any currency a header names (`Paid Out (*)`); they are
/// compared ignoring case and surrounding spaces. Row patterns are compared ignoring case, `*`
/// matching any text.
public struct StatementProfile: Sendable, Equatable {
    /// The file's name without `profile-` and `.toml`: what `--profile` takes.
    public let name: String
    /// `Revolut`: said as `read as a Revolut statement`.
    public var title: String
    /// Columns that must all be in the header for the layout to be recognised.
    public var detect: [String] = []
    /// `header_exact`: recognised only when the header is the `detect` columns and nothing else
    /// (American Express's `Date,Description,Amount`, a header many banks could write). A file so
    /// recognised whose amounts are mostly of the spending sign's opposite is refused, not guessed.
    public var headerExact = false
    public var date: String?
    public var dateFormat: String?
    /// One signed amount column, or `paidOut` and `paidIn` (two unsigned columns).
    public var amount: String?
    public var paidOut: String?
    public var paidIn: String?
    /// A column holding each row's fee beside its amount: a fee line of its own (`appendFee`).
    public var fee: String?
    /// The column holding the amount after the fee (PayPal's `Net`). With it, the fee is signed as
    /// the account's money (a fee taken has the spending sign, a fee given back the other), and
    /// each row's amount plus its fee must be its net, or the row is refused: a fee that does not
    /// add up is not understood.
    public var net: String?
    public var currency: String?
    public var note: String?
    public var category: String?
    /// The amount charged in the trip's home currency (`--charged-column`); it wins over any rate.
    public var charged: String?
    /// The merchant's amount, when the row was in another currency than the account's: a cell
    /// like `GBP 15.00`, or a number with `foreignCurrency` naming its currency.
    public var foreignAmount: String?
    public var foreignCurrency: String?
    /// `true`: spending is written negative and money in positive.
    public var spendingNegative: Bool?
    /// A column that says which way money went, and its values for spending (ING Netherlands'
    /// `Af Bij` with `Af`): the amount is then unsigned.
    public var direction: String?
    public var moneyOut: [String] = []
    public var moneyIn: [String] = []
    /// The column whose values say what a row is (`Type`); the note when `nil`.
    public var type: String?
    /// A state column, the values that mean pending and the values that mean the row never happened.
    public var state: String?
    public var pending: [String] = []
    public var notCompleted: [String] = []
    /// A column that is empty while the row is pending (`Completed Date`).
    public var completedWhenSet: String?
    /// The column that names each row (PayPal's `Transaction ID`), and the column in which an
    /// `exchange` row names the row its currency conversion paid for (`Reference Txn ID`): the
    /// payment is then charged what the conversion took (`StatementConversions`).
    public var id: String?
    public var conversionOf: String?
    /// First cells that end the table (`Umsätze*`, `Alter Kontostand*`: comdirect writes its next
    /// account and its closing balance below the rows).
    public var endsAt: [String] = []
    /// Date cells that mean the row is not booked yet (`offen`); `Pending` always does (UK cards).
    public var pendingDates: [String] = []
    /// `decimal_mark`: `.` or `,`, the mark every amount is read with; `nil`: decided cell by cell.
    public var decimalMark: Character?
    /// `other_money_in = "skip"`: money in that no pattern names and whose description no spending
    /// row of the file has is skipped (a salary), not taken for a refund. What inference decides.
    public var skipsOtherMoneyIn = false
    /// `(kind, patterns)` in file order: the first kind with a matching pattern classifies a row.
    public var rows: [(kind: RowKind, patterns: [String])] = []

    public static func == (l: StatementProfile, r: StatementProfile) -> Bool { l.name == r.name }

    /// What a statement row is.
    public enum RowKind: Sendable, Equatable {
        case purchase, refund, fee
        /// Not spending (a top-up, a transfer, an exchange): skipped and counted under this label.
        case skip(String)
    }

    /// Reads a profile file; `origin` names it in errors.
    public init(name: String, origin: String, text: String) throws(TripError) {
        self.name = name
        title = name
        let file = try ConfigFile(origin: origin, text: text)
        func list(_ v: String) -> [String] { v.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty } }
        for e in file.entries {
            if e.section == "rows" {
                let kind: RowKind =
                    switch e.key {
                    case "purchase": .purchase
                    case "refund": .refund
                    case "fee": .fee
                    default: .skip(e.key.replacingUnderscores)
                    }
                rows.append((kind, list(e.value)))
                continue
            }
            guard e.section.isEmpty else {
                throw .badConfig(file: origin, line: e.line, message: "unknown section [\(e.section)]; a profile has [rows] only")
            }
            switch e.key {
            case "title": title = e.value
            case "detect": detect = list(e.value)
            case "header_exact":
                guard e.value == "true" || e.value == "false" else {
                    throw .badConfig(file: origin, line: e.line, message: "header_exact is true or false")
                }
                headerExact = e.value == "true"
            case "date": date = e.value
            case "date_format":
                guard DatePattern(e.value) != nil else {
                    throw .badConfig(file: origin, line: e.line, message: "date_format \(quoted(e.value)) is not a date pattern")
                }
                dateFormat = e.value
            case "amount": amount = e.value
            case "paid_out": paidOut = e.value
            case "paid_in": paidIn = e.value
            case "fee": fee = e.value
            case "net": net = e.value
            case "currency": currency = e.value
            case "note": note = e.value
            case "category": category = e.value
            case "charged": charged = e.value
            case "foreign_amount": foreignAmount = e.value
            case "foreign_currency": foreignCurrency = e.value
            case "spending":
                guard e.value == "negative" || e.value == "positive" else {
                    throw .badConfig(file: origin, line: e.line, message: "spending is negative or positive")
                }
                spendingNegative = e.value == "negative"
            case "direction": direction = e.value
            case "money_out": moneyOut = list(e.value)
            case "money_in": moneyIn = list(e.value)
            case "type": type = e.value
            case "state": state = e.value
            case "pending": pending = list(e.value)
            case "not_completed": notCompleted = list(e.value)
            case "completed_when_set": completedWhenSet = e.value
            case "id": id = e.value
            case "conversion_of": conversionOf = e.value
            case "ends_at": endsAt = list(e.value)
            case "pending_dates": pendingDates = list(e.value)
            case "decimal_mark":
                guard e.value == "." || e.value == "," else {
                    throw .badConfig(file: origin, line: e.line, message: "decimal_mark is \".\" or \",\"")
                }
                decimalMark = e.value.first
            case "other_money_in":
                guard e.value == "skip" || e.value == "refund" else {
                    throw .badConfig(file: origin, line: e.line, message: "other_money_in is skip or refund")
                }
                skipsOtherMoneyIn = e.value == "skip"
            default:
                throw .badConfig(file: origin, line: e.line, message: "unknown key \(e.key)")
            }
        }
        guard date != nil, amount != nil || paidOut != nil else {
            throw .badConfig(file: origin, line: 1, message: "a profile needs date and amount (or paid_out and paid_in)")
        }
        if net != nil && (fee == nil || amount == nil) {
            throw .badConfig(file: origin, line: 1, message: "net checks a fee against a signed amount: it needs fee and amount")
        }
    }

    /// An empty profile for a mapping given by options alone.
    init(generic name: String) {
        self.name = name
        title = "generic"
    }

    /// The shipped profiles, then the user's (`folder`), a user's replacing a shipped one of the same name.
    public static func all(userFolder: String?) throws(TripError) -> [StatementProfile] {
        var out: [StatementProfile] = []
        for (name, bytes) in Embedded.statementProfiles {
            out.append(try StatementProfile(name: name, origin: "config/profile-\(name).toml", text: String(decoding: bytes, as: UTF8.self)))
        }
        guard let folder = userFolder, let dir = opendir(folder) else { return out }
        defer { closedir(dir) }
        var files: [String] = []
        while let entry = readdir(dir) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if file.hasSuffix(".toml") && !file.hasPrefix(".") { files.append(file) }
        }
        for file in files.sorted() {
            let path = folder + "/" + file
            guard let text = TextFile.read(path) else { continue }
            let p = try StatementProfile(name: String(file.dropLast(5)), origin: path, text: text)
            out.removeAll { $0.name == p.name }
            out.append(p)
        }
        return out
    }

    /// `~/.config/trip/profiles` (or under `$XDG_CONFIG_HOME`).
    public static func userFolder(environment env: [String: String]) -> String {
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"].map { $0 + "/.config" } ?? ".config")
        return base + "/trip/profiles"
    }

    /// Whether `header` has every `detect` column.
    func recognises(_ header: [String]) -> Bool {
        if headerExact {
            let cells = header.filter { !$0.isEmpty }
            return cells.count == detect.count && zip(cells, detect).allSatisfy { Self.columnMatches($0, $1) }
        }
        return !detect.isEmpty && detect.allSatisfy { d in header.contains { Self.columnMatches($0, d) } }
    }

    /// Whether a header cell is the column a profile or option names: equal ignoring case, or with
    /// the name's `(*)` standing for the header's `(EUR)`. `Description | Reference` names either
    /// (Revolut renamed the column in 2018).
    static func columnMatches(_ header: String, _ name: String) -> Bool {
        let names = name.split(separator: "|")
        if names.count > 1 { return names.contains { columnMatches(header, String($0)) } }
        let h = header.trimmingSpaces.lowercased(), n = name.trimmingSpaces.lowercased()
        if h == n { return true }
        guard n.hasSuffix("(*)") else { return false }
        // `(EUR)` or a symbol (DKB's `Betrag (€)`): one to three characters in the parentheses.
        let stem = n.dropLast(2)
        return h.hasPrefix(stem) && h.hasSuffix(")") && (stem.count + 2...stem.count + 4).contains(h.count)
    }

    /// Whether a row whose first cell is `cell` ends the table.
    func endsTable(_ cell: String) -> Bool {
        let t = cell.lowercased()
        return endsAt.contains { Self.glob($0.lowercased(), t) }
    }

    /// Whether a date cell says the row is not booked yet.
    func isPendingDate(_ cell: String) -> Bool {
        let t = cell.trimmingSpaces.lowercased()
        return t == "pending" || pendingDates.contains { $0.lowercased() == t }
    }

    /// What a row is by its type (or note) cell; `nil` when no pattern matches.
    func kind(of cell: String) -> RowKind? {
        let t = cell.trimmingSpaces.lowercased()
        for (kind, patterns) in rows where patterns.contains(where: { Self.glob($0.lowercased(), t) }) { return kind }
        return nil
    }

    /// The merchant a money-back row names through its refund pattern's `*` (`Refund from *` on
    /// `Refund from Amazon`: `Amazon`), when rows are told apart by their description; `nil` when
    /// a type column tells them apart, or no refund pattern with one `*` matches.
    func refundMerchant(_ cell: String) -> String? {
        guard type == nil else { return nil }
        let t = cell.trimmingSpaces
        for (kind, patterns) in rows where kind == .refund {
            for p in patterns {
                let parts = p.split(separator: "*", omittingEmptySubsequences: false)
                guard parts.count == 2, Self.glob(p.lowercased(), t.lowercased()) else { continue }
                let m = String(t.dropFirst(parts[0].count).dropLast(parts[1].count)).trimmingSpaces
                return m.isEmpty ? nil : m
            }
        }
        return nil
    }

    /// `*` matches any text, everything else itself.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return pattern == text }
        guard text.hasPrefix(parts[0]) else { return false }
        var rest = Substring(text.dropFirst(parts[0].count))
        for (i, part) in parts.enumerated().dropFirst() {
            if i == parts.count - 1 { return part.isEmpty || (rest.count >= part.count && rest.hasSuffix(part)) }
            guard !part.isEmpty else { continue }
            guard let r = rest.range(of: part) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }
}

extension String {
    /// `card_settlement` → `card settlement`: profile keys cannot hold spaces.
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }

}

extension Substring {
    fileprivate func range(of needle: String) -> Range<String.Index>? {
        guard !needle.isEmpty else { return startIndex..<startIndex }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
