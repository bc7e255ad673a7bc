/// Every error a trip command reports to the user: one line, naming the field and the value at
/// fault. `exitCode` follows sysexits: 64 usage, 65 bad data, 69 unavailable, 70 internal.
public enum TripError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCurrency(String, suggestions: [String])
    /// Three capital letters after `trip add`'s amount that are no currency: maybe a note (`KFC`).
    case unknownCurrencyOrNote(String, suggestions: [String], asNote: String)
    case currencyWithoutMinorUnits(String)
    case badAmount(field: String, value: String, reason: String)
    case ambiguousAmount(field: String, value: String, readings: [String], suggestions: [String])
    case badPercent(field: String, value: String, reason: String)
    case badDate(field: String, value: String)
    /// A slash date (`3/5`) and no `date_order` setting to read it by; `readings` are its possible dates.
    case ambiguousDate(field: String, value: String, readings: [String], suggestions: [String])
    /// A date that is valid but out of order with another (an end before its start).
    case badDateRange(field: String, value: String, reason: String)
    case badRate(field: String, value: String, reason: String)
    case badText(field: String, reason: String)
    /// Free text that breaks `TextField`'s rules (control characters, invalid UTF-8, too long).
    case badTextValue(field: String, value: String, reason: String)
    case badChoice(field: String, value: String, allowed: [String])
    case adjustmentExceedsPrice(field: String, value: String, price: String)
    case tripNotFound(String)
    case tripExists(String)
    case tripClosed(String, at: String)
    case noCurrentTrip
    /// No current trip (it was deleted) while these trips exist.
    case noCurrentTripAmong([String])
    case purchaseNotFound(String)
    case presetNotFound(String, available: [String])
    case configNotFound(path: String)
    case configIsFolder(path: String)
    case badConfig(file: String, line: Int, message: String)
    case newerLedger(path: String, version: Int, known: Int)
    case noRate(from: String, to: String, date: String)
    case confirmationRequired(String)
    case usage(String)
    /// `trip import`: row `row` (1 = the first data row after the header), column `column`.
    case badRow(row: Int, column: String, value: String, reason: String)
    /// A value stored in the ledger that cannot be read (a pulled row of a shared trip, a file
    /// changed by hand): `row` names it (`purchase #7`), `field` its column.
    case badStoredValue(row: String, field: String, value: String, reason: String)
    /// A network or provider failure; the message is already one line naming the cause.
    case unavailable(String)
    case storage(String)

    public var exitCode: Int32 {
        switch self {
        case .usage, .confirmationRequired, .configNotFound, .configIsFolder: 64
        case .unavailable: 69
        case .storage: 70
        default: 65
        }
    }

    public var description: String {
        switch self {
        case let .unknownCurrency(code, suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
            return "currency: unknown ISO 4217 code \(quoted(code))\(hint)"
        case let .unknownCurrencyOrNote(code, suggestions, asNote):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
            return "currency: unknown ISO 4217 code \(quoted(code))\(hint) If it is part of the note, type: \(asNote)"
        case let .currencyWithoutMinorUnits(code):
            return "currency: \(code) has no minor units in ISO 4217 and cannot hold money"
        case let .badAmount(field, value, reason):
            return "\(field): \(quoted(value)) \(reason)"
        case let .ambiguousAmount(field, value, readings, suggestions):
            return
                "\(field): \(quoted(value)) is ambiguous: \(readings.joined(separator: ", ")); type \(suggestions.joined(separator: " or ")) instead"
        case let .badPercent(field, value, reason):
            return "\(field): \(quoted(value)) \(reason)"
        case let .badDate(field, value):
            return "\(field): \(quoted(value)) is not a valid date; use YYYY-MM-DD, today, yesterday, tomorrow, -N (days ago) or a weekday (mon…sun)"
        case let .ambiguousDate(field, value, readings, suggestions):
            let reading =
                readings.count > 1
                ? "is ambiguous: \(readings.joined(separator: " or "))"
                : "needs a date order (it reads as \(readings.joined()))"
            return
                "\(field): \(quoted(value)) \(reading); type \(suggestions.joined(separator: " or ")) instead, or set date_order = \"dmy\", \"mdy\" or \"ymd\" in your config"
        case let .badDateRange(field, value, reason):
            return "\(field): \(quoted(value)) \(reason)"
        case let .badRate(field, value, reason):
            return "\(field): \(quoted(value)) \(reason)"
        case let .badText(field, reason):
            return "\(field): \(reason)"
        case let .badTextValue(field, value, reason):
            return "\(field): \(quoted(value)) \(reason)"
        case let .badChoice(field, value, allowed):
            return "\(field): \(quoted(value)) is not one of \(allowed.joined(separator: ", "))"
        case let .adjustmentExceedsPrice(field, value, price):
            return "\(field): \(quoted(value)) is more than the price \(price)"
        case let .tripNotFound(name):
            return "no trip named \(quoted(name)); `trip trips` lists them"
        case let .tripExists(name):
            return "name: a trip named \(quoted(name)) already exists"
        case let .tripClosed(name, at):
            return "\(quoted(name)) was closed on \(at.prefix(10)); its purchases are frozen (`trip reopen` to change them)"
        case .noCurrentTrip:
            return "no current trip; create one with `trip new NAME` or pass --trip NAME"
        case let .noCurrentTripAmong(names):
            let shown = names.prefix(5).map(quoted).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            return "no current trip; choose one with `trip use NAME` (\(shown)) or pass --trip NAME"
        case let .purchaseNotFound(id):
            return "id: no purchase with id \(quoted(id))"
        case let .presetNotFound(name, available):
            return "preset: unknown preset \(quoted(name)); known: \(available.joined(separator: ", "))"
        case let .configIsFolder(path):
            return
                "config: \(quoted(path)) is a folder; give the config file itself, e.g. \(quoted(path.hasSuffix("/") ? path + "config.toml" : path + "/config.toml"))"
        case let .configNotFound(path):
            return "config: no config file at \(quoted(path))"
        case let .badConfig(file, line, message):
            return "config: \(file):\(line): \(message)"
        case let .newerLedger(path, version, known):
            return
                "ledger: \(path) was written by a newer trip (schema \(version); this trip knows up to \(known)); upgrade trip. The file was not changed"
        case let .noRate(from, to, date):
            return "rate: no \(from)→\(to) rate for \(date); set one with `trip rates set \(from) RATE --in \(to)`"
        case let .confirmationRequired(what):
            return "\(what): add --yes to confirm"
        case let .badRow(row, column, value, reason):
            return "import: row \(row), column \(column): \(quoted(value)) \(reason)"
        case let .badStoredValue(row, field, value, reason):
            return "ledger: \(row): stored \(field) \(quoted(value)) \(reason)"
        case let .usage(message), let .unavailable(message), let .storage(message):
            return message
        }
    }
}

/// Quotes user input for an error message, escaping anything that could break the one-line,
/// terminal-safe contract (control characters, quotes, backslashes) and cutting long values.
public func quoted(_ value: String) -> String {
    var out = "\""
    var count = 0
    for scalar in value.unicodeScalars {
        count += 1
        if count > 60 { out += "…"; break }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if UnsafeText.isUnsafe(scalar) {
                out += UnsafeText.escaped(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
