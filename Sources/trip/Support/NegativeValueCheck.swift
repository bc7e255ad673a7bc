import TripCore

/// Rejects a negative number where trip takes a number (`trip add -5`, `--tax -5%`, `trip rates set
/// JPY -1`) with the field's own error (exit 65), before the argument parser reads `-5` as an
/// option and reports a missing value that does not name it.
enum NegativeValueCheck {
    /// Options whose value is a number, an expression or a percentage, and the field each names.
    static let numericOptions: [String: String] = [
        "--amount": "amount", "--discount": "discount", "--service": "service", "--tax": "tax", "--tip": "tip",
        "--rate": "rate", "--charged": "charged", "--budget": "budget",
    ]

    static func reject(_ args: [String]) -> TripError? {
        // The amount of `add` and `convert`, the rate of `rates set CUR RATE`.
        if args.count >= 2, args[0] == "add" || args[0] == "convert", looksNegative(args[1]) {
            return error("amount", args[1])
        }
        // The amount of `transfer [add] FROM TO AMOUNT`.
        if args.first == "transfer" {
            let rest = args.dropFirst(args.count > 1 && args[1] == "add" ? 2 : 1)
            if rest.count >= 3, looksNegative(rest[rest.startIndex + 2]) { return error("amount", rest[rest.startIndex + 2]) }
        }
        if args.count >= 4, args[0] == "rates", args[1] == "set", looksNegative(args[3]) {
            return error("rate", args[3])
        }
        // `trip transfer FROM TO AMOUNT`, `trip refund ID AMOUNT`.
        if args.count >= 4, args[0] == "transfer", looksNegative(args[3]) { return error("amount", args[3]) }
        if args.count >= 3, args[0] == "refund", looksNegative(args[2]) { return error("amount", args[2]) }
        for (i, a) in args.enumerated().dropLast() {
            if a == "--" { break }
            if let field = numericOptions[a], looksNegative(args[i + 1]) { return error(field, args[i + 1]) }
        }
        return nil
    }

    /// `-5`, `-0`, `--5`, `-.5`, `-(5)`, `-5%`, `-inf`, `-NaN`: a minus sign before something
    /// number-like, never an option name.
    static func looksNegative(_ a: String) -> Bool {
        guard a.hasPrefix("-") else { return false }
        let rest = a.drop { $0 == "-" }
        if let c = rest.first, c.isASCII && (c.isNumber || c == "." || c == "(") { return true }
        return ["inf", "infinity", "nan"].contains(rest.lowercased()) && a.dropFirst().first != "-"
    }

    static func error(_ field: String, _ value: String) -> TripError {
        let twoDashes = value.hasPrefix("--")
        let reason =
            twoDashes
            ? "is not a number; a value cannot start with a minus sign"
            : field == "amount" || field == "budget" || field == "charged"
                ? "is negative; amounts cannot be below zero"
                : field == "rate"
                    ? "is negative; a rate must be above zero"
                    : "is negative; a percentage must be from 0% to 100% and an amount cannot be below zero"
        return field == "rate"
            ? .badRate(field: field, value: value, reason: reason)
            : .badAmount(field: field, value: value, reason: reason)
    }
}
