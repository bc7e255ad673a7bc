import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `trip import FILE --splitwise`: a Splitwise group export.
///
/// Header `Date,Description,Category,Cost,Currency,` then one column per member holding that
/// member's signed net effect of the row (+ is owed, − owes; a row's columns add up to zero).
/// Rows of category `Payment` are settle-ups and become transfers (from the member whose column is
/// positive to the one whose column is negative). An expense with one payer (the only positive
/// column) is rebuilt exactly: the payer paid the cost, each other member's share is minus their
/// column, the payer's share the rest. Blank rows are skipped. `Total balance` rows give each
/// member's balance per currency, checked against the balances the import produced (in that
/// currency, with no conversion). Everything happens in one transaction: any error, an expense
/// with several payers included (named row by row), and nothing is imported.
public struct SplitwiseImport {
    /// With several payers: import the row anyway, each positive member paying in proportion to
    /// their column and each member's share chosen so that paid − share is exactly their column.
    public var payersByNet = false

    public init(payersByNet: Bool = false) { self.payersByNet = payersByNet }

    struct Row {
        let number: Int
        let date: String
        let description: String
        let category: String
        let cost: Int64
        let currency: Currency
        /// Per member column, in the currency's minor units.
        let nets: [Int64]
    }
}

extension Ledger {
    public func importSplitwise(path: String, trip name: String?, options: SplitwiseImport) throws -> SplitwiseImportResult {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TripError.usage("import: cannot open \(quoted(path)): \(String(cString: strerror(errno)))")
        }
        defer { if fd != 0 { close(fd) } }
        let reader = CSVReader(fileDescriptor: fd)
        func next() throws -> [String]? {
            do { return try reader.next() } catch {
                throw TripError.badText(field: "import", reason: "\(quoted(path)): \(error.description)")
            }
        }
        guard let header = try next() else { throw TripError.badText(field: "import", reason: "\(quoted(path)) is empty") }
        let fixed = ["date", "description", "category", "cost", "currency"]
        guard header.count > fixed.count, header.prefix(5).map({ $0.trimmingSpaces.lowercased() }) == fixed else {
            throw TripError.badText(
                field: "import",
                reason: "\(quoted(path)) is not a Splitwise export: its header must start with "
                    + "Date,Description,Category,Cost,Currency and name one member per column after them")
        }
        let names = header.dropFirst(5).map { $0.trimmingSpaces }
        var rows: [SplitwiseImport.Row] = []
        var totals: [String: [Int64]] = [:]
        var number = 0
        while let fields = try next() {
            number += 1
            if fields.allSatisfy({ $0.trimmingSpaces.isEmpty }) { continue }
            func bad(_ column: String, _ value: String, _ reason: String) -> TripError {
                .badRow(row: number, column: column, value: value, reason: reason)
            }
            let currency = try CurrencyTable.shared.currency(for: fields[4].trimmingSpaces)
            func amount(_ text: String, _ column: String) throws -> Int64 {
                let t = text.trimmingSpaces
                let negative = t.hasPrefix("-")
                let magnitude = try AmountExpression.evaluate(
                    negative ? String(t.dropFirst()) : t, field: column,
                    minorUnits: currency.minorUnits)
                return negative ? -magnitude : magnitude
            }
            let nets = try names.indices.map { try amount(fields[5 + $0], names[$0]) }
            if fields[1].trimmingSpaces.lowercased() == "total balance" {
                totals[currency.code] = nets
                continue
            }
            guard nets.reduce(0, +) == 0 else {
                throw bad(
                    "members", nets.map { Money(minorUnits: $0, currency: currency).plainText }.joined(separator: ","),
                    "do not add up to zero; is this a Splitwise export?")
            }
            guard let date = CivilDate(iso: fields[0].trimmingSpaces.prefix(10).description) else {
                throw bad("Date", fields[0], "is not a date (YYYY-MM-DD)")
            }
            rows.append(
                .init(
                    number: number, date: date.description, description: fields[1], category: fields[2].trimmingSpaces,
                    cost: try amount(fields[3], "Cost"), currency: currency, nets: nets))
        }

        // Rows that cannot be rebuilt exactly, all named before anything is written.
        var unclear: [String] = []
        var unrecorded: [String] = []
        for r in rows where r.category.lowercased() != "payment" {
            let payers = r.nets.filter { $0 > 0 }.count
            if payers > 1 && !options.payersByNet {
                unclear.append("row \(r.number) (\(TextFormat.safe(r.description)): \(payers) payers)")
            } else if payers == 0 && r.cost > 0 {
                unrecorded.append("row \(r.number) (\(TextFormat.safe(r.description)))")
            }
        }
        // Every column at zero: no option recovers a payer the file does not hold.
        guard unrecorded.isEmpty else {
            throw TripError.badText(
                field: "import",
                reason: "Splitwise did not record who paid "
                    + unrecorded.joined(separator: ", ")
                    + ": every member's column is 0; nothing was imported. Add those expenses with trip add --paid-by, "
                    + "or remove the rows")
        }
        guard unclear.isEmpty else {
            throw TripError.badText(
                field: "import",
                reason: "Splitwise rows with several payers cannot be rebuilt exactly: "
                    + unclear.joined(separator: "; ") + "; nothing was imported. Add --payers-by-net to split each one by its columns")
        }

        return try transaction {
            let trip = try resolveTrip(name)
            try requireOpen(trip)
            var members = try self.members(of: trip)
            let missing = names.filter { SplitSpec.memberIndex($0, in: members.map(\.name)) == nil }
            if !missing.isEmpty {
                _ = try addMembers(missing, trip: trip.name)
                members = try self.members(of: trip)
            }
            // The file's columns in the trip's member names.
            let column = names.map { members[SplitSpec.memberIndex($0, in: members.map(\.name))!].name }
            func balanceByName(_ code: String) throws -> [String: Int64] {
                let b = try balances(of: trip, members: members, inCurrency: .stored(code))
                return Dictionary(uniqueKeysWithValues: b.rows.map { ($0.member.name, $0.balance) })
            }
            // A trip that already had purchases: the file must account for what changes.
            let before = try Dictionary(uniqueKeysWithValues: totals.keys.map { ($0, try balanceByName($0)) })
            var purchases = 0, transfers = 0, skipped = 0
            let lastID = try purchaseStore.maxID()
            // Rows already imported (this export, or an earlier one of the same group) are
            // recognised: purchases by their import key, payments as the export import does.
            let stored = try purchaseStore.importKeyLookup()
            var keys = ImportKeys()
            var seenPayments: [TransferIdentity: Int64] = [:]
            for r in rows {
                let money = { (v: Int64) in Money(minorUnits: v, currency: r.currency).plainText }
                if r.category.lowercased() == "payment" {
                    let from = r.nets.indices.filter { r.nets[$0] > 0 }, to = r.nets.indices.filter { r.nets[$0] < 0 }
                    guard from.count == 1, to.count == 1, r.nets[from[0]] == -r.nets[to[0]] else {
                        throw TripError.badRow(
                            row: r.number, column: "members", value: r.nets.map(money).joined(separator: ","),
                            reason: "is not a payment from one member to another")
                    }
                    let payer = members.first { $0.name == column[from[0]] }!, payee = members.first { $0.name == column[to[0]] }!
                    let identity = TransferIdentity(
                        tripID: trip.id, from: payer.id, to: payee.id, date: CivilDate(iso: r.date)!,
                        amount: Money(minorUnits: r.nets[from[0]], currency: r.currency), note: r.description)
                    if seenPayments[identity] == nil { seenPayments[identity] = try transferStore.count(identity) }
                    if seenPayments[identity]! > 0 {
                        seenPayments[identity]! -= 1
                        skipped += 1
                        continue
                    }
                    _ = try insertTransfer(
                        trip: trip, from: payer, to: payee, amount: r.nets[from[0]],
                        currency: r.currency, date: CivilDate(iso: r.date)!, note: r.description)
                    transfers += 1
                    continue
                }
                var h = FNV1a()
                h.add("splitwise")
                h.add(trip.id)
                h.add(r.date)
                h.add(r.currency.code)
                h.add(r.cost)
                h.add(r.description)
                h.add(r.category)
                for (k, net) in r.nets.enumerated() {
                    h.add(column[k])
                    h.add(net)
                }
                let key = keys.key(for: h.value)
                if try stored.contains(key) {
                    skipped += 1
                    continue
                }
                let positive = r.nets.indices.filter { r.nets[$0] > 0 }
                var paid = [Int64](repeating: 0, count: r.nets.count)
                if positive.count == 1 {
                    paid[positive[0]] = r.cost
                } else {
                    // Several payers (with --payers-by-net): each pays in proportion to their column.
                    let parts = try Allocation.largestRemainder(r.cost, weights: positive.map { Rational(r.nets[$0]) })
                    for (k, i) in positive.enumerated() { paid[i] = parts[k] }
                }
                let shares = r.nets.indices.map { paid[$0] - r.nets[$0] }
                guard shares.allSatisfy({ $0 >= 0 }), shares.reduce(0, +) == r.cost else {
                    throw TripError.badRow(
                        row: r.number, column: "Cost", value: money(r.cost),
                        reason: "does not match the members' columns (\(r.nets.map(money).joined(separator: ",")))")
                }
                let paidBy = paid.indices.filter { paid[$0] > 0 }.map { "\(column[$0])=\(money(paid[$0]))" }
                let shared = shares.indices.filter { shares[$0] > 0 }.map { "\(column[$0])=\(shares[$0])" }
                let category = r.category.isEmpty || r.category.lowercased() == "general" ? nil : r.category.lowercased()
                let added = try addPurchase(
                    PurchaseDraft(
                        amount: money(r.cost), currency: r.currency.code, note: r.description,
                        date: r.date, category: category, trip: trip.name),
                    split: SplitDraft(
                        paidBy: paidBy.isEmpty ? column[0] : paidBy.joined(separator: ","),
                        split: shared.isEmpty ? column.joined(separator: ",") : shared.joined(separator: ",")))
                try purchaseStore.setImportKey(key, id: added.id)
                purchases += 1
            }
            // The balances Splitwise showed, per currency: the trip's own when it holds only this
            // group's rows (so a re-import, which changes nothing, is still checked), else what the
            // import changed; with rows skipped in a trip holding others, neither can be compared.
            let onlyThisGroup = try purchaseStore.count(trip: trip.id) + transferStore.count(trip: trip.id) == rows.count
            let comparable = onlyThisGroup || skipped == 0
            for (code, expected) in totals.sorted(by: { $0.key < $1.key }) where comparable {
                let after = try balanceByName(code)
                for (k, name) in column.enumerated() {
                    let change = after[name]! - (onlyThisGroup ? 0 : before[code]?[name] ?? 0)
                    guard change == expected[k] else {
                        let c = Currency.stored(code)
                        throw TripError.badText(
                            field: "import",
                            reason: "after import, \(name)'s \(code) balance would be "
                                + "\(Money(minorUnits: change, currency: c).plainText), but the Total balance row says "
                                + "\(Money(minorUnits: expected[k], currency: c).plainText); nothing was imported")
                    }
                }
            }
            var result = SplitwiseImportResult(
                trip: trip.name, purchases: purchases, transfers: transfers, membersAdded: missing,
                checkedCurrencies: comparable ? totals.keys.sorted() : [])
            result.skipped = skipped
            result.compared = !comparable ? nil : onlyThisGroup ? "the trip's balances" : "the balances' changes"
            if let outside = try outsideTripDatesWarning(after: lastID, trips: [trip]) { result.warnings.append(outside) }
            return result
        }
    }
}
