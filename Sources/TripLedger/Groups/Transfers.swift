import Storage
import TripCore
import TripModel

/// Transfers between a trip's members: recorded, settled up, and converted again with the rates.
extension Ledger {
    /// `trip transfer FROM TO AMOUNT [CUR] [--date D] [--trip T]`.
    public func addTransfer(
        from: String, to: String, amount: String, currency: String?, date: String?,
        note: String?, trip name: String?
    ) throws -> Transfer {
        let trip = try resolveTrip(name)
        try requireOpen(trip)
        let members = try requireMembers(trip)
        let payer = try Ledger.member(from, in: members, trip: trip)
        let payee = try Ledger.member(to, in: members, trip: trip)
        guard payer.id != payee.id else {
            throw TripError.badTextValue(field: "to", value: to, reason: "is the member who pays; a transfer is between two members")
        }
        let cur = try currency.map { try self.currency(word: $0, field: "currency", trip: trip) } ?? trip.homeCurrency
        let minor = try AmountExpression.evaluate(
            amount, field: "amount", minorUnits: cur.minorUnits, rounding: settings.rounding.value, currencyCode: cur.code)
        guard minor > 0 else { throw TripError.badAmount(field: "amount", value: amount, reason: "must be more than zero") }
        let day = try date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? clock.today
        let text = try Ledger.checkText(note ?? "", field: "note")
        return try transaction {
            let t = try insertTransfer(trip: trip, from: payer, to: payee, amount: minor, currency: cur, date: day, note: text)
            return try withSharedID(t, tripID: trip.id)
        }
    }

    /// `trip transfers [--trip T]`: the trip's transfers, by date then id.
    public func transfers(trip name: String?) throws -> [Transfer] {
        let trip = try resolveTrip(name)
        let names = Dictionary(try members(of: trip).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var out: [Transfer] = []
        try transferStore.forEachTransfer(trip: trip.id) { out.append(transfer($0, trip: trip, names: names)) }
        guard try syncStore.isShared(trip: trip.id) else { return out }
        return try out.map { try withSharedID($0, tripID: trip.id) }
    }

    /// `trip transfer rm T3` (and `trip rm T3`): removes the transfer. On a shared trip the
    /// removal travels like a purchase's.
    public func removeTransfer(_ ref: String) throws -> Transfer {
        try transaction {
            let (t, trip) = try storedTransfer(ref)
            try requireOpen(trip)
            let removed = transfer(t, trip: trip, names: try memberNames(trip))
            try transferStore.delete(id: t.id)
            return try withSharedID(removed, tripID: trip.id)
        }
    }

    /// `trip transfer edit T3 …`: changes the fields given. A new amount, currency or date
    /// converts the transfer again, at the rate of its (new) date, as `trip transfer` would.
    public func editTransfer(_ ref: String, _ edit: TransferEdit) throws -> Transfer {
        guard !edit.isEmpty else {
            throw TripError.usage("transfer edit: nothing to change; give --from, --to, --amount, --currency, --date or --note")
        }
        return try transaction {
            let (t, trip) = try storedTransfer(ref)
            try requireOpen(trip)
            let members = try requireMembers(trip)
            let byID = Dictionary(members.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            guard var payer = byID[t.from], var payee = byID[t.to] else {
                throw TripError.badTextValue(field: "id", value: ref, reason: "names a member who is no longer in the trip")
            }
            if let from = edit.from { payer = try Ledger.member(from, in: members, trip: trip) }
            if let to = edit.to { payee = try Ledger.member(to, in: members, trip: trip) }
            guard payer.id != payee.id else {
                throw TripError.badTextValue(
                    field: edit.to != nil ? "to" : "from", value: edit.to ?? edit.from ?? payee.name,
                    reason: "is the member who pays; a transfer is between two members")
            }
            // `--currency won` as `trip add 8900 won` reads it (README, "Currency words").
            let cur = try edit.currency.map { try currency(word: $0, field: "currency", trip: trip) } ?? .stored(t.currency)
            var minor = t.amount
            if let amount = edit.amount {
                minor = try AmountExpression.evaluate(amount, field: "amount", minorUnits: cur.minorUnits, rounding: settings.rounding.value)
                guard minor > 0 else { throw TripError.badAmount(field: "amount", value: amount, reason: "must be more than zero") }
            } else if cur.code != t.currency {
                // The same amount typed in another currency: its digits, in that currency's minor units.
                let text = Money(minorUnits: t.amount, currency: .stored(t.currency)).plainText
                minor = try AmountExpression.evaluate(text, field: "amount", minorUnits: cur.minorUnits, rounding: settings.rounding.value)
            }
            let day = try edit.date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? CivilDate(iso: t.date) ?? clock.today
            let note = try edit.note.map { n throws(TripError) in try Ledger.checkText(n, field: "note") } ?? t.note
            let old = transfer(t, trip: trip, names: byID.mapValues(\.name))
            let amount = Money(minorUnits: minor, currency: cur)
            let conversion =
                amount == old.amount && day == old.date
                ? old.conversion
                : try convert(
                    Breakdown.unadjusted(minor), currency: cur, home: trip.homeCurrency, date: day, purchaseRate: nil, charged: nil,
                    trip: trip.id)
            try transferStore.update(id: t.id, from: payer.id, to: payee.id, date: day, amount: amount, conversion: conversion, note: note)
            let edited = Transfer(
                id: t.id, tripName: trip.name, from: payer.name, to: payee.name, date: day, amount: amount,
                conversion: conversion, note: note)
            return try withSharedID(edited, tripID: trip.id)
        }
    }

    /// `trip rm ID`: a purchase to the trash, or, for a `T…` id, a transfer removed.
    public func remove(_ idText: String) throws -> Removal {
        if try transferID(idText) != nil { return .transfer(try removeTransfer(idText)) }
        return .purchase(try removePurchase(idText))
    }

    /// Transfer `ref` (`T3`) and its trip, or an error naming the id as typed.
    private func storedTransfer(_ ref: String) throws -> (StoredTransfer, Trip) {
        let notFound = TripError.badTextValue(field: "id", value: ref, reason: "is not a transfer here; `trip transfers` lists them (T1, T2, …)")
        guard let id = try transferID(ref) else {
            throw TripError.badTextValue(field: "id", value: ref, reason: "is not a transfer id; transfers are T1, T2, … (`trip transfers`)")
        }
        var found: StoredTransfer?
        try transferStore.forEachTransfer(id: id) { found = $0 }
        guard let t = found, let trip = try trip(id: t.tripID) else { throw notFound }
        return (t, trip)
    }

    private func memberNames(_ trip: Trip) throws -> [Int64: String] {
        Dictionary(try members(of: trip).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// A stored transfer as people see it: members by name, the conversion as stored.
    private func transfer(_ t: StoredTransfer, trip: Trip, names: [Int64: String]) -> Transfer {
        let home = Currency.stored(t.homeCurrency)
        return Transfer(
            id: t.id, tripName: trip.name, from: names[t.from] ?? "?", to: names[t.to] ?? "?",
            date: CivilDate(iso: t.date) ?? clock.today, amount: Money(minorUnits: t.amount, currency: .stored(t.currency)),
            conversion: Conversion(
                homeCurrency: home, home: t.home, homeDiscount: nil, homeService: nil, homeTax: nil, homeTip: nil, quote: t.quote),
            note: t.note)
    }

    /// `trip settle --record`: the settle-up's transfers, in the home currency, dated today.
    public func recordSettlement(trip name: String?) throws -> (balances: GroupBalances, recorded: [Transfer]) {
        let trip = try resolveTrip(name)
        try requireOpen(trip)
        return try transaction {
            let b = try balances(of: trip, members: try requireMembers(trip), inCurrency: nil)
            let recorded = try b.settlement.map { t in
                try insertTransfer(
                    trip: trip, from: t.from, to: t.to, amount: t.amount, currency: trip.homeCurrency,
                    date: clock.today, note: "settle-up")
            }
            try identifySettlement(recorded, of: b, trip: trip)
            return (b, recorded)
        }
    }

    /// On a shared trip, a settle-up's transfers get global ids made of the balances they settle
    /// (each member's global id and balance) and their two members: two devices that record the
    /// settle-up of the same balances, offline, record the same transfers, which travel as one
    /// (the later version wins), instead of settling every debt twice (README, "Conflicts").
    private func identifySettlement(_ recorded: [Transfer], of b: GroupBalances, trip: Trip) throws {
        guard let shared = try sharedTrip(trip), !recorded.isEmpty else { return }
        var key = ""
        for row in b.rows.sorted(by: { $0.member.id < $1.member.id }) {
            key += try globalID(kind: "member", localID: row.member.id, shared: shared) + "=\(row.balance);"
        }
        let members = Dictionary(b.rows.map { ($0.member.name, $0.member.id) }, uniquingKeysWith: { first, _ in first })
        for t in recorded {
            let from = try globalID(kind: "member", localID: members[t.from] ?? 0, shared: shared)
            let to = try globalID(kind: "member", localID: members[t.to] ?? 0, shared: shared)
            var gid = GlobalID.settlement(trip: shared.gid, balances: key, from: from, to: to)
            // The same balances settled before (their transfers since removed): a settle-up of its own.
            var n = 1
            while try syncStore.localID(kind: "transfer", gid: gid) != nil {
                n += 1
                gid = GlobalID.settlement(trip: shared.gid, balances: key + "#\(n)", from: from, to: to)
            }
            try syncStore.insertIdentity(kind: "transfer", localID: t.id, gid: gid, trip: trip.id)
        }
    }

    /// `conversion`: one already made (an imported transfer keeps the one it was exported with);
    /// `nil` converts at the rate of `date`.
    package func insertTransfer(
        trip: Trip, from: Member, to: Member, amount: Int64, currency: Currency, date: CivilDate,
        note: String, conversion recorded: Conversion? = nil
    ) throws -> Transfer {
        let b = Breakdown.unadjusted(amount)
        let conversion =
            try recorded
            ?? convert(b, currency: currency, home: trip.homeCurrency, date: date, purchaseRate: nil, charged: nil, trip: trip.id)
        let id = try transferStore.insert(
            trip: trip, from: from.id, to: to.id, date: date, amount: Money(minorUnits: amount, currency: currency),
            conversion: conversion, note: note, createdAt: clock.now)
        return Transfer(
            id: id, tripName: trip.name, from: from.name, to: to.name, date: date,
            amount: Money(minorUnits: amount, currency: currency), conversion: conversion, note: note)
    }

    /// Converts again, like `rerate` does purchases, the transfers of open trips whose rate is
    /// provisional, missing, manual or fallback: a transfer has the same provenance rules as a
    /// purchase. Runs inside the caller's transaction.
    func rerateTransfers(currencies: Set<String>?, tripID: Int64, includingClosed: Bool = false) throws {
        let rows = try transferStore.toRerate(trip: tripID, includingClosed: includingClosed)
        for r in rows {
            if let currencies, !currencies.contains(r.currency.code) && !currencies.contains(r.home.code) { continue }
            let b = Breakdown.unadjusted(r.amount)
            let c = try convert(b, currency: r.currency, home: r.home, date: r.date, purchaseRate: nil, charged: nil, trip: tripID)
            try transferStore.updateConversion(id: r.id, c)
        }
    }
}
