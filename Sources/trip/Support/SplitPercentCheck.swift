import TripCore

/// Rejects a percentage split from its `%` (`--tax 10 %`) before the argument parser reads `%`
/// as a word of the note and logs a tax of 10 in the purchase currency.
enum SplitPercentCheck {
    /// Options that take a percentage or an amount.
    static let percentOptions = ["--discount": "discount", "--service": "service", "--tax": "tax", "--tip": "tip"]

    static func reject(_ args: [String]) -> TripError? {
        for (i, a) in args.enumerated() {
            if a == "--" { break }
            let (name, value, next): (String, String, Int)
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                (name, value, next) = (String(a[..<eq]), String(a[a.index(after: eq)...]), i + 1)
            } else {
                guard i + 1 < args.count else { continue }
                (name, value, next) = (a, args[i + 1], i + 2)
            }
            guard let field = percentOptions[name], next < args.count, args[next].hasPrefix("%"), !value.hasSuffix("%") else { continue }
            return .badPercent(
                field: field, value: "\(value) \(args[next])",
                reason: "has a space before \"%\"; type \(name) \(value)%")
        }
        return nil
    }
}
