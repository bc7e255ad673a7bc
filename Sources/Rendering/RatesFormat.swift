import TripCore
import TripModel

/// Text and JSON of the rate commands: `trip rates status`, `show`, `set`, `sync`, and `trip convert`
/// (README, "JSON contract").
public enum RatesFormat {
    // MARK: trip rates status

    public static func text(status lines: [RateStatusLine]) -> String {
        guard !lines.isEmpty else { return "No rates cached and no purchases yet." }
        var text = ["currency  latest      age  provider      provisional"]
        for l in lines {
            let latest = l.latest?.description ?? "never"
            let age = l.ageDays.map { "\($0)d" } ?? "-"
            let provider = l.provider ?? "-"
            text.append(
                "\(l.currency)       \(latest)\(spaces(max(1, 12 - latest.count)))\(spaces(max(0, 4 - age.count)))\(age)  "
                    + "\(provider)\(spaces(max(1, 14 - provider.count)))\(l.provisional)")
        }
        return text.joined(separator: "\n")
    }

    public static func json(status lines: [RateStatusLine]) -> JSONValue {
        .object([
            "currencies": .array(
                lines.map { l in
                    .object([
                        "currency": .string(l.currency), "latest": JSONValue(l.latest?.description),
                        "age_days": l.ageDays.map { .int(Int64($0)) } ?? .null, "provider": JSONValue(l.provider),
                        "provisional": .int(Int64(l.provisional)),
                    ])
                })
        ])
    }

    // MARK: trip rates show, trip rates set

    /// `sharedTrip`: the shared trip whose rates these are (those pulled from it and this
    /// device's that travel into it), named first; nil for this device's own.
    public static func text(manual rates: [ManualRate], sharedTrip: String? = nil) -> String {
        let list =
            rates.isEmpty
            ? "No manual rates. Set one with `trip rates set JPY 0.0067 --in USD`."
            : rates.map { "\($0.date)  \(pair($0))" }.joined(separator: "\n")
        return sharedTrip.map { "Rates of shared trip \(TextFormat.safe($0)), for its purchases only:\n" + list } ?? list
    }

    public static func json(manual rates: [ManualRate]) -> JSONValue {
        .object(["manual": .array(rates.map(\.json))])
    }

    public static func text(set rate: ManualRate, _ summary: RerateSummary) -> String {
        var text = "\(pair(rate))  (from \(rate.date))"
        if summary.changed > 0 { text += "\nre-rated \(summary.changed) purchase\(summary.changed == 1 ? "" : "s")" }
        return text
    }

    public static func json(set rate: ManualRate, _ summary: RerateSummary) -> JSONValue {
        .object(["rate": rate.json, "rerate": summary.json()])
    }

    /// `1 JPY = 0.0067 USD · 1 USD = 149.253731343 JPY`: both ways, because people enter rates
    /// the wrong way round.
    private static func pair(_ m: ManualRate) -> String {
        "1 \(m.base.code) = \(m.rate) \(m.quote.code) · 1 \(m.quote.code) = \(m.inverse) \(m.base.code)"
    }

    // MARK: trip convert

    public static func text(converted from: Money, to: Money, route: RateRoute) -> String {
        let q = route.quote
        let details =
            (route.summary ?? q.source.rawValue + (q.provider.map { " " + $0 } ?? "") + (q.date.map { ", \($0)" } ?? ""))
            + (q.provisional ? ", provisional" : "")
        return "\(from.formatted) = \(to.formatted)  at \(q.rate) (\(details))"
    }

    public static func json(converted from: Money, to: Money, route: RateRoute) -> JSONValue {
        var quote: [String: JSONValue] = [:]
        if case .object(let fields) = route.quote.json { quote = fields }
        quote["via"] = JSONValue(route.via)
        quote["legs"] = .array(route.legs.map(\.json))
        return .object([
            "amount": .string(from.plainText), "currency": .string(from.currency.code),
            "converted": .string(to.plainText), "to": .string(to.currency.code), "quote": .object(quote),
        ])
    }

    // MARK: trip rates sync

    public static func text(sync outcome: RatesSyncOutcome) -> String {
        var lines: [String] = []
        for (trip, s) in outcome.trips {
            var line = "re-rated \(s.changed) purchase\(s.changed == 1 ? "" : "s") in \(TextFormat.safe(trip.name))"
            for (code, delta) in s.delta.sorted(by: { $0.key < $1.key }) where s.changed > 0 {
                let c = CurrencyTable.shared.lookup(code) ?? trip.homeCurrency
                line += "; total \(delta >= 0 ? "+" : "")\(Money(minorUnits: delta, currency: c).plainText) \(code)"
            }
            if s.remainingProvisional > 0 {
                line += "; \(s.remainingProvisional) remain\(s.remainingProvisional == 1 ? "s" : "") provisional (\(reasons(s, outcome)))"
            } else {
                line += "; all final"
            }
            lines.append(line)
        }
        if outcome.nothingToSync {
            lines.append("nothing to sync: no open trip in scope has provisional or unconverted purchases; no rates were fetched")
        } else if outcome.trips.isEmpty {
            lines.append("rates refreshed; no trip has provisional purchases")
        }
        for f in outcome.failures { lines.append("warning: \(f.provider): \(f.message)") }
        return lines.joined(separator: "\n")
    }

    public static func json(sync outcome: RatesSyncOutcome) -> JSONValue {
        .object([
            "trips": .array(
                outcome.trips.map { trip, s in
                    var o: [String: JSONValue] = ["trip": .string(trip.name)]
                    if case .object(let fields) = s.json() { o.merge(fields) { $1 } }
                    return .object(o)
                }),
            "responses": .int(Int64(outcome.responses)),
            "nothing_to_sync": .bool(outcome.nothingToSync),
            "observations": .int(Int64(outcome.observations)),
            "missing": .object(outcome.missing.mapValues { .string($0) }),
            "failures": .array(outcome.failures.map { .object(["provider": .string($0.provider), "error": .string($0.message)]) }),
        ])
    }

    /// Why each currency stays provisional: what no provider had, and what re-rating used instead.
    private static func reasons(_ summary: RerateSummary, _ outcome: RatesSyncOutcome) -> String {
        summary.reasons.keys.sorted().map { code in
            let parts = [outcome.missing[code], summary.reasons[code]].compactMap { $0 }
            return "\(code): \(parts.joined(separator: "; "))"
        }.joined(separator: ", ")
    }

    private static func spaces(_ n: Int) -> String { String(repeating: " ", count: n) }
}
