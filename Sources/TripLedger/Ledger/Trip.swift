import Storage
import TripCore
import TripModel

/// What `trip new` was given, as typed: `Ledger.createTrip` checks and parses every field (name,
/// currencies, dates, presets, budget) and throws naming the one at fault.
public struct NewTrip: Sendable {
    public var name: String
    public var localCurrency: String?
    public var homeCurrency: String?
    public var start: String?
    public var end: String?
    /// `--preset`, repeatable: one default per currency.
    public var presets: [String]
    public var budget: String?

    public init(
        name: String, localCurrency: String? = nil, homeCurrency: String? = nil, start: String? = nil,
        end: String? = nil, preset: String? = nil, budget: String? = nil, presets: [String] = []
    ) {
        self.name = name
        self.localCurrency = localCurrency
        self.homeCurrency = homeCurrency
        self.start = start
        self.end = end
        self.presets = (preset.map { [$0] } ?? []) + presets
        self.budget = budget
    }
}

extension Ledger {
    /// Validates a free-text field with `TextField`'s rules; tabs and line breaks are allowed in notes only.
    package static func checkText(
        _ text: String, field: String, maxBytes: Int = TextField.noteMaxBytes,
        allowEmpty: Bool = true
    ) throws(TripError) -> String {
        try TextField.check(text, field: field, maxBytes: maxBytes, allowEmpty: allowEmpty, allowsLayout: field == "note")
    }

    /// A trip name checked, then tidied (`TextField.tidy`); case and width stay as typed.
    static func checkTripName(_ text: String, field: String) throws(TripError) -> String {
        TextField.tidy(try checkText(text, field: field, maxBytes: TextField.tripNameMaxBytes, allowEmpty: false))
    }

    /// Refuses `name` when another trip's name differs from it only in case, width or spacing,
    /// naming that trip as it is stored.
    func requireNewTripName(_ name: String, except id: Int64? = nil) throws {
        let key = TextField.matchKey(name)
        if let clash = try trips().first(where: { $0.id != id && TextField.matchKey($0.name) == key }) {
            throw TripError.tripExists(clash.name)
        }
    }

    /// `trip new`: creates a trip and makes it current.
    @discardableResult
    public func createTrip(_ newTrip: NewTrip) throws -> Trip {
        let name = try Ledger.checkTripName(newTrip.name, field: "name")
        let local = try newTrip.localCurrency.map { c throws(TripError) in try CurrencyTable.shared.currency(for: c) }
        let home = try newTrip.homeCurrency.map { c throws(TripError) in try CurrencyTable.shared.currency(for: c) } ?? defaultHome().currency
        let start = try newTrip.start.map { d throws(TripError) in try clock.date(d, field: "start") }
        let end = try newTrip.end.map { d throws(TripError) in try clock.date(d, field: "end") }
        if let start, let end, end < start {
            throw TripError.badDateRange(field: "end", value: newTrip.end!, reason: "is before the start \(start)")
        }
        let presets = try tripPresets(newTrip.presets, local: local)
        let budget = try newTrip.budget.map { b throws(TripError) in
            try AmountExpression.evaluate(b, field: "budget", minorUnits: home.minorUnits, rounding: settings.rounding.value, currencyCode: home.code)
        }
        return try transaction {
            try requireNewTripName(name)
            // The id explicitly: never one a deleted trip had (m0006).
            let id = try nextID(.trips)
            try tripStore.insert(
                id: id, name: name, local: local, home: home, start: start, end: end, presets: presets, budget: budget,
                createdAt: clock.now)
            try setLedgerSetting("current_trip", String(id))
            return try trip(id: id)!
        }
    }

    package func trip(id: Int64) throws -> Trip? {
        try tripStore.trip(id: id)
    }

    /// The trip of that name; else the one trip whose name differs only in case, width or spacing.
    public func trip(named name: String) throws -> Trip {
        if let t = try tripStore.trip(named: name) {
            return t
        }
        let key = TextField.matchKey(name)
        let matches = try trips().filter { TextField.matchKey($0.name) == key }
        guard matches.count == 1 else { throw TripError.tripNotFound(name) }
        return matches[0]
    }

    /// All trips, oldest first.
    public func trips() throws -> [Trip] {
        try tripStore.all()
    }

    public func currentTrip() throws -> Trip? {
        guard let v = try ledgerSetting("current_trip"), let id = Int64(v) else { return nil }
        return try trip(id: id)
    }

    /// `--trip NAME` if given, else the current trip.
    public func resolveTrip(_ name: String?) throws -> Trip {
        if let name { return try trip(named: name) }
        guard let t = try currentTrip() else { throw try noCurrentTrip() }
        return t
    }

    /// Validated default presets as stored in `trips.preset`: known names, at most one per
    /// currency (a preset without currencies counts as the local currency's); `none` alone clears.
    func tripPresets(_ names: [String], local: Currency?) throws -> String? {
        if names.count == 1, names[0].lowercased() == "none" { return nil }
        var owner: [String: String] = [:]
        var out: [String] = []
        for name in names {
            let p = try settings.preset(named: name)
            if out.contains(p.name) { continue }
            for code in p.currencies.isEmpty ? [local?.code ?? "the local currency"] : p.currencies {
                if let other = owner[code] {
                    throw TripError.usage("preset: \(p.name) and \(other) are both for \(code); a trip has one default preset per currency")
                }
                owner[code] = p.name
            }
            out.append(p.name)
        }
        return out.isEmpty ? nil : out.joined(separator: ",")
    }

    /// `trip presets P… [--trip NAME]`: replaces the trip's default presets (`none` clears them).
    /// Purchases already logged keep theirs; the new defaults apply to later ones.
    public func setTripPresets(_ names: [String], trip name: String?) throws -> Trip {
        try transaction {
            let t = try resolveTrip(name)
            let stored = try tripPresets(names, local: t.localCurrency)
            try tripStore.setPresets(stored, trip: t.id)
            return try trip(id: t.id)!
        }
    }

    /// The error for a command that needs the current trip when there is none: with other trips
    /// (the current one was deleted), it points at `trip use` and names them.
    package func noCurrentTrip() throws -> TripError {
        let names = try trips().map(\.name)
        return names.isEmpty ? .noCurrentTrip : .noCurrentTripAmong(names)
    }

    /// `trip use NAME`.
    public func useTrip(_ name: String) throws -> Trip {
        let t = try trip(named: name)
        try transaction { try setLedgerSetting("current_trip", String(t.id)) }
        return t
    }

    /// `trip rename OLD NEW`.
    public func renameTrip(_ old: String, to new: String) throws -> Trip {
        let newName = try Ledger.checkTripName(new, field: "new name")
        return try transaction {
            let t = try trip(named: old)
            try requireNewTripName(newName, except: t.id)
            try tripStore.rename(t.id, to: newName)
            return try trip(id: t.id)!
        }
    }

    /// `trip close NAME`: freezes the trip. Its conversions no longer change on sync or when a
    /// manual rate is set, its purchases cannot be added, edited or removed, and its report says
    /// when it was closed. Closing a closed trip keeps the first date.
    public func closeTrip(_ name: String) throws -> Trip {
        try transaction {
            let t = try trip(named: name)
            try tripStore.close(t.id, at: clock.now)
            return try trip(id: t.id)!
        }
    }

    /// `trip reopen NAME`: undoes `close`.
    public func reopenTrip(_ name: String) throws -> Trip {
        try transaction {
            let t = try trip(named: name)
            try tripStore.reopen(t.id)
            return try trip(id: t.id)!
        }
    }

    /// Throws when `trip` is closed: its purchases are frozen.
    package func requireOpen(_ trip: Trip) throws(TripError) {
        if let closed = trip.closedAt { throw .tripClosed(trip.name, at: closed) }
    }

    /// `trip delete NAME --yes`: removes the trip and its purchases. Returns how many purchases went.
    public func deleteTrip(_ name: String) throws -> (trip: Trip, purchases: Int) {
        try transaction {
            let t = try trip(named: name)
            let n = try purchaseStore.count(trip: t.id)
            try tripStore.delete(t.id)
            if try currentTrip() == nil { try setLedgerSetting("current_trip", nil) }
            return (t, n)
        }
    }
}

extension Ledger {
    /// A warning for a purchase dated outside its trip's start…end, or nil. Such a purchase is
    /// accepted (a deposit paid before leaving, a refund after): only a typo is worth a second look.
    public func outsideTripWarning(_ p: Purchase) throws -> String? {
        guard let t = try trip(id: p.tripID) else { return nil }
        if let start = t.start, p.date < start {
            return "warning: #\(p.id) is dated \(p.date), before \(t.name) starts on \(start)"
        }
        if let end = t.end, p.date > end {
            return "warning: #\(p.id) is dated \(p.date), after \(t.name) ends on \(end)"
        }
        return nil
    }
}
