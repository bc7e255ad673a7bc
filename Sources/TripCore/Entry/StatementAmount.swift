/// An amount cell of a card statement, read as data: one number, its sign, and the currency when
/// the cell names one (`GBP 19.35`, `"-27,60 USD"`, `42,00 €`). Never an arithmetic expression:
/// a date in the amount column (`2026-01-03`) is an error, not 2,022.
///
/// Signs: a leading or trailing `-`, parentheses (`(12.50)`, accounting's negative) and a `CR`
/// suffix (a credit on American statements) all make it negative; what negative means (spending
/// or money in) is the statement's convention, decided by the reader, not here.
public struct StatementAmount: Sendable, Equatable {
    /// The absolute value in minor units of `currency`.
    public let minorUnits: Int64
    public let isNegative: Bool
    /// The code the cell wrote (`GBP`, or `EUR` for `€`), or `nil`.
    public let writtenCurrency: String?

    /// Symbols that name one currency only; `$` and `¥` name several and are refused. None is the
    /// end of another (`A$` would be the end of `CA$`), since they are tried in no set order.
    public static let symbols: [String: String] = [
        "€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW", "₺": "TRY", "zł": "PLN", "Kč": "CZK", "MX$": "MXN", "US$": "USD",
        "CA$": "CAD", "AU$": "AUD", "NZ$": "NZD", "HK$": "HKD", "R$": "BRL",
    ]

    /// Reads `cell`. `currency` gives the currency of an amount whose cell names none (its
    /// decimal places decide how the number is read); `field` and the cell are named in errors,
    /// with the currency, so `"21.97" has 2 decimal places; JPY has 0` says which. `decimalMark`,
    /// when the file's amounts decided it (`StatementInference`), makes the other mark grouping only.
    public static func read(
        _ cell: String, field: String, decimalMark: Character? = nil, currency fallback: () throws -> Currency
    ) throws -> StatementAmount {
        var t = Substring(cell.trimmingSpaces)
        func bad(_ reason: String) -> TripError { .badAmount(field: field, value: cell, reason: reason) }
        guard !t.isEmpty else { throw bad("is empty; a statement row needs an amount") }
        t = Substring(String(t).trimmingSpaces)
        var negative = false
        var code: String?
        // A code or symbol before or after the number, with or without a space.
        let letters = t.prefix { $0.isLetter && $0.isASCII }
        let trailing = String(t.reversed().prefix { $0.isLetter && $0.isASCII }.reversed())
        if letters.count == 3 {
            code = letters.uppercased()
            t = t.dropFirst(3)
        } else if trailing.count == 3 {
            code = trailing.uppercased()
            t = t.dropLast(3)
        } else {
            for (symbol, c) in symbols {
                if t.hasPrefix(symbol) {
                    code = c
                    t = t.dropFirst(symbol.count)
                    break
                }
                if t.hasSuffix(symbol) {
                    code = c
                    t = t.dropLast(symbol.count)
                    break
                }
            }
        }
        t = Substring(String(t).trimmingSpaces)
        if t.hasPrefix("(") && t.hasSuffix(")") {
            negative = true
            t = t.dropFirst().dropLast()
        }
        if t.uppercased().hasSuffix("CR"), t.count > 2, t.dropLast(2).last.map({ $0 == " " || $0.isNumber }) == true {
            negative = true
            t = t.dropLast(2)
        } else if t.uppercased().hasSuffix("DR"), t.count > 2, t.dropLast(2).last.map({ $0 == " " || $0.isNumber }) == true {
            t = t.dropLast(2)
        }
        t = Substring(String(t).trimmingSpaces)
        if t.hasPrefix("-") || t.hasPrefix("−") {
            negative.toggle()
            t = t.dropFirst()
        } else if t.hasPrefix("+") {
            t = t.dropFirst()
        } else if t.hasSuffix("-") {
            // German banks sometimes write the sign after the number.
            negative.toggle()
            t = t.dropLast()
        }
        t = Substring(String(t).trimmingSpaces)
        // The file decided its mark: the number is read by it alone, never re-decided cell by cell.
        var decided: NumberLiteral?
        if let mark = decimalMark {
            guard let plain = Self.plain(t, mark: mark), let v = Rational(decimalText: plain) else {
                throw bad("is not a valid number with \(quoted(String(mark))) as decimal mark")
            }
            decided = NumberLiteral(value: v, fractionDigits: plain.split(separator: ".").dropFirst().first?.count ?? 0)
        }
        let scalars = Array(t.unicodeScalars)
        guard !scalars.isEmpty,
            scalars.allSatisfy({
                ("0"..."9").contains($0) || $0 == "." || $0 == "," || NumberLiteral.isGroupingSpace($0)
                    || NumberLiteral.isApostrophe($0)
            })
        else {
            throw bad("is not an amount; a statement's amount is one number, with its currency code or sign if any")
        }
        let currency = try code.map { c throws(TripError) in try CurrencyTable.shared.currency(for: c) } ?? fallback()
        let n = try decided ?? NumberLiteral.read(scalars, field: field, whole: cell, minorUnits: currency.minorUnits)
        guard n.fractionDigits <= currency.minorUnits else {
            throw bad("has \(n.fractionDigits) decimal places; \(currency.code) has \(currency.minorUnits)")
        }
        let scaled = try? n.value.scaled(byPowerOfTen: currency.minorUnits).roundedToInt64(.halfUp)
        guard let value = scaled, PurchaseBound.contains(value) else { throw bad("is too large for one purchase") }
        return StatementAmount(minorUnits: value, isNegative: negative && value != 0, writtenCurrency: code)
    }

    /// `1.234,50` with mark `,` as `1234.50`: the other mark (and spaces, apostrophes) only between
    /// groups of three digits; `nil` when they are anywhere else.
    static func plain(_ text: Substring, mark: Character) -> String? {
        let parts = text.split(separator: mark, omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first else { return nil }
        let groups = whole.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "," || $0 == "'" || $0 == " " || $0 == "\u{00A0}" }
        guard let first = groups.first, !first.isEmpty || parts.count == 2, first.count <= (groups.count > 1 ? 3 : .max),
            groups.dropFirst().allSatisfy({ $0.count == 3 }), groups.joined().allSatisfy(\.isNumber)
        else { return nil }
        guard parts.count == 2 else { return groups.joined() }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return (first.isEmpty ? "0" : groups.joined()) + "." + parts[1]
    }
}
