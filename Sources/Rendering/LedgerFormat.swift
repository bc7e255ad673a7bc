import TripCore
import TripModel

/// Text and JSON of the commands that manage the ledger, its trips and their members (README,
/// "JSON contract"); the purchase and report renderers are `TextFormat` and `JSONContract`.
public enum LedgerFormat {
    // MARK: the ledger

    public static func text(initialized path: String, home: Currency) -> String {
        "Ledger ready at \(path) · home currency \(home.code)"
    }

    public static func json(initialized path: String, home: Currency) -> JSONValue {
        .object(["ledger": .string(path), "home_currency": .string(home.code)])
    }

    public static func text(backup path: String) -> String { "Backed up the ledger to \(path)" }

    public static func json(backup path: String) -> JSONValue { .object(["backup": .string(path)]) }

    public static func text(whoami me: String?) -> String {
        me.map { "You are \($0)." } ?? "Not set: on a group trip, `trip add` needs --paid-by until you say who you are."
    }

    public static func json(whoami me: String?) -> JSONValue { .object(["whoami": JSONValue(me)]) }

    // MARK: trips

    public static func text(created trip: Trip) -> String {
        "Created \(TextFormat.safe(trip.name)) (\(trip.localCurrency?.code ?? trip.homeCurrency.code) → \(trip.homeCurrency.code)); it is now the current trip."
    }

    public static func text(current trip: Trip) -> String { "Current trip: \(TextFormat.safe(trip.name))" }

    public static func text(renamed trip: Trip) -> String { "Renamed to \(TextFormat.safe(trip.name))" }

    public static func text(closed trip: Trip) -> String {
        "Closed \(TextFormat.safe(trip.name)) on \(trip.closedAt?.prefix(10) ?? "?")."
    }

    public static func text(reopened trip: Trip) -> String { "Reopened \(TextFormat.safe(trip.name))." }

    public static func text(presetsOf trip: Trip) -> String {
        "Default presets of \(TextFormat.safe(trip.name)): \(trip.presets.isEmpty ? "none" : trip.presets.joined(separator: ", "))"
    }

    public static func json(trips: [Trip], current: Trip?) -> JSONValue {
        .object(["trips": .array(trips.map(\.json)), "current": JSONValue(current?.name)])
    }

    public static func text(deleted trip: Trip, purchases count: Int) -> String {
        "Deleted \(TextFormat.safe(trip.name)) and its \(count) purchase\(count == 1 ? "" : "s")."
    }

    public static func json(deleted trip: Trip, purchases count: Int) -> JSONValue {
        .object(["deleted": trip.json, "purchases": .int(Int64(count))])
    }

    // MARK: purchases in and out of the trash

    public static func json(removed p: Purchase) -> JSONValue { .object(["removed": p.json]) }

    public static func json(restored p: Purchase) -> JSONValue { .object(["restored": p.json]) }

    // MARK: members and balances

    public static func text(added: [Member], to trip: Trip) -> String {
        "Added \(added.map(\.name).joined(separator: ", ")) to \(trip.name)."
    }

    public static func json(added: [Member], to trip: Trip) -> JSONValue {
        .object(["trip": .string(trip.name), "added": .array(added.map(\.json))])
    }

    public static func json(members: [Member], of trip: Trip, whoami me: String?) -> JSONValue {
        .object(["trip": .string(trip.name), "members": .array(members.map(\.json)), "whoami": JSONValue(me)])
    }

    public static func text(removedMember m: Member) -> String { "Removed member \(m.name)." }

    public static func text(renamedMember m: Member, from old: String) -> String { "Renamed \(old) to \(m.name)." }

    /// `trip balances --by-currency`: one balance per currency.
    public static func text(balancesByCurrency all: [GroupBalances]) -> String {
        all.map(TextFormat.balances).joined(separator: "\n\n")
    }

    public static func json(balancesByCurrency all: [GroupBalances]) -> JSONValue {
        .object(["by_currency": .array(all.map(\.json))])
    }

    // MARK: reports

    /// `trip report --format json`: one report's object, or `{"reports":[…]}` with `--all`.
    public static func json(reports: [TripReport], all: Bool) -> JSONValue {
        all ? .object(["reports": .array(reports.map(\.json))]) : reports[0].json
    }
}
