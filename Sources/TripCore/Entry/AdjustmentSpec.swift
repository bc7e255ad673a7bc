/// One adjustment as the user gave it: a percentage (`20%`) or an amount in the purchase's
/// currency (`500`, `3*100`). Kept as typed, so editing the price recomputes percentages.
public enum AdjustmentSpec: Hashable, Sendable, CustomStringConvertible {
    /// An exact fraction: `20%` is stored as 1/5. Always within 0…1.
    case percent(Rational, text: String)
    /// An amount expression, evaluated in the purchase's currency when the breakdown is computed.
    case amount(String)

    /// Reads `--discount 20%` or `--discount 500`. A percentage must be a plain number from 0 to
    /// 100 followed by `%`; `.` or `,` may be its decimal separator.
    public static func parse(_ text: String, field: String) throws(TripError) -> AdjustmentSpec {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix("%") else {
            guard !trimmed.isEmpty else {
                throw .badAmount(field: field, value: text, reason: "is empty; give a percentage such as 10% or an amount")
            }
            return .amount(trimmed)
        }
        let number = String(trimmed.dropLast()).trimmingSpaces
        // "10 %" as one argument, like `--tax 10 %` as two: never stored as typed (README, "Percentages").
        if number.count < trimmed.count - 1 {
            // The suggestion repeats the number only when it is one: anything else (a control
            // character included) is never echoed unquoted.
            let plain = String(number.map { $0 == "," ? "." : $0 })
            let isNumber = number.count <= 24 && Rational(decimalText: plain) != nil
            let hint = isNumber ? "type --\(field) \(number)%" : "write the percentage with no space, like 10%"
            throw .badPercent(field: field, value: text, reason: "has a space before %; \(hint)")
        }
        guard !number.hasPrefix("-") else {
            throw .badPercent(field: field, value: text, reason: "is negative; a percentage must be from 0% to 100%")
        }
        let normalized = String(number.map { $0 == "," ? "." : $0 })
        guard number.count <= 24, let fraction = Rational(decimalText: normalized), !normalized.hasPrefix("-") else {
            throw .badPercent(field: field, value: text, reason: "is not a percentage; write it like 10% or 8.875%")
        }
        guard let value = try? fraction / Rational(integer: 100), value <= .one else {
            throw .badPercent(field: field, value: text, reason: "is over 100%")
        }
        return .percent(value, text: trimmed)
    }

    /// What `--FIELD 15` was taken as, when it is an amount that reads as a percentage too (a
    /// plain number above 0 and at most 100): `--tip 15` on a coffee of 10 may have meant 15%,
    /// so the user is told which was taken and how to type the other. `amount` is what it came to.
    public func amountHint(field: String, amount: Money) -> String? {
        guard case .amount(let text) = self, text.count <= 24, let value = Rational(decimalText: text),
            value > .zero, value <= Rational(integer: 100)
        else { return nil }
        return "note: --\(field) \(text) was taken as an amount, \(amount.formatted); for \(text)% type --\(field) \(text)%"
    }

    /// The stored form: `20%` or the amount expression.
    public var description: String {
        switch self {
        case .percent(_, let text): text
        case .amount(let text): text
        }
    }
}

extension StringProtocol {
    /// The string without leading and trailing ASCII spaces and tabs (no Foundation needed).
    public var trimmingSpaces: String {
        let scalars = String(self).unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
