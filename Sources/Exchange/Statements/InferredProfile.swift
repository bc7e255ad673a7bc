import Storage
import TripCore
import TripLedger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StatementProfile {
    /// The profile `StatementInference` decided, read by the same row reader as a shipped one.
    init(layout: StatementLayout, name: String = "inferred") {
        self.init(generic: name)
        title = "inferred"
        detect = layout.header.filter { !$0.isEmpty }
        date = layout.date
        dateFormat = layout.datePatterns.count == 1 ? layout.datePatterns[0].description : nil
        amount = layout.amount
        paidOut = layout.paidOut
        paidIn = layout.paidIn
        decimalMark = layout.decimalMark
        spendingNegative = layout.spendingNegative
        direction = layout.direction
        moneyOut = layout.moneyOut
        moneyIn = layout.moneyIn
        currency = layout.currency
        note = layout.note
        foreignAmount = layout.foreignAmount
        foreignCurrency = layout.foreignCurrency
        type = layout.type
        state = layout.state
        pending = layout.pending
        notCompleted = layout.notCompleted
        skipsOtherMoneyIn = layout.skipsOtherMoneyIn
        rows = layout.rows.map { rule in
            let kind: RowKind =
                switch rule.kind {
                case .purchase: .purchase
                case .refund: .refund
                case .fee: .fee
                case .skip(let label): .skip(label)
                }
            return (kind, rule.patterns)
        }
    }

    /// The profile as a file the user can edit (`config/profile-NAME.toml`'s keys), recognised by
    /// its header from then on. `--date-format` is written only when one pattern reads every date.
    var fileText: String {
        func q(_ s: String) -> String {
            "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        func list(_ v: [String]) -> String { q(v.joined(separator: ", ")) }
        var lines = [
            "# Written by trip import --save-profile from what the file decided; edit it freely.",
            "# The keys are those of the shipped profiles (docs/import-and-export.md, \"Inference\").",
            "title = \(q(name))", "detect = \(list(detect.filter { !$0.contains(",") }))",
        ]
        let keys: [(String, String?)] = [
            ("date", date), ("date_format", dateFormat), ("amount", amount), ("paid_out", paidOut), ("paid_in", paidIn),
            ("decimal_mark", decimalMark.map(String.init)), ("spending", spendingNegative.map { $0 ? "negative" : "positive" }),
            ("direction", direction), ("money_out", direction == nil ? nil : moneyOut.joined(separator: ", ")),
            ("money_in", direction == nil ? nil : moneyIn.joined(separator: ", ")), ("currency", currency), ("note", note),
            ("foreign_amount", foreignAmount), ("foreign_currency", foreignCurrency), ("type", type), ("state", state),
            ("pending", state == nil ? nil : pending.joined(separator: ", ")),
            ("not_completed", state == nil ? nil : notCompleted.joined(separator: ", ")),
            ("other_money_in", skipsOtherMoneyIn ? "skip" : nil),
        ]
        for case (let key, let value?) in keys { lines.append("\(key) = \(q(value))") }
        if !rows.isEmpty {
            lines.append("")
            lines.append("[rows]")
            for (kind, patterns) in rows {
                let key =
                    switch kind {
                    case .purchase: "purchase"
                    case .refund: "refund"
                    case .fee: "fee"
                    case .skip(let label): String(label.map { $0 == " " ? "_" : $0 })
                    }
                lines.append("\(key) = \(list(patterns))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `name` can be a profile's name: what `--profile` takes and the file is called.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 40 && name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
    }

    /// Writes the profile to `folder/NAME.toml`, creating the folder; an existing file is never replaced.
    func save(in folder: String) throws(TripError) {
        let path = folder + "/" + name + ".toml"
        var parts: [String] = []
        for piece in folder.split(separator: "/", omittingEmptySubsequences: false) {
            parts.append(String(piece))
            let sofar = parts.joined(separator: "/")
            if !sofar.isEmpty { _ = mkdir(sofar, 0o755) }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "exists; remove it or choose another name" : String(cString: strerror(errno))
            throw .badText(field: "save-profile", reason: "\(quoted(path)) \(reason)")
        }
        defer { close(fd) }
        let bytes = Array(fileText.utf8)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard n == bytes.count else {
            throw .badText(field: "save-profile", reason: "\(quoted(path)) could not be written: \(String(cString: strerror(errno)))")
        }
    }
}
