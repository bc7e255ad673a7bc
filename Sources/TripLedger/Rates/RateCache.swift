import TripCore

/// What a trip still needs rates for: its provisional or unconverted purchases, per currency.
public struct TripRateNeeds: Sendable {
    public let trip: Trip
    /// Purchase currencies and the home currency, sorted.
    public let currencies: [String]
    public let from: CivilDate
    public let to: CivilDate
}

extension Ledger {
    /// Stores one validated response: its observations, and the URL's validators and newest date,
    /// in one transaction, so a response is cached entirely or not at all.
    public func storeRates(
        _ observations: [RateObservation], provider: String, base: String, url: String,
        etag: String?, lastModified: String?, latestDate: String?
    ) throws {
        try db.transaction {
            let insert = try db.prepare(
                """
                INSERT INTO rate_observations (provider, base, quote, date, rate, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (provider, base, quote, date) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at
                """)
            for o in observations {
                try insert.run([.text(o.provider), .text(o.base), .text(o.quote), .text(o.date), .text(o.rate), .text(clock.now)])
            }
            try db.run(
                """
                INSERT INTO provider_state (provider, url, base, etag, last_modified, latest_date, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (provider, url) DO UPDATE SET base = excluded.base, etag = excluded.etag,
                  last_modified = excluded.last_modified,
                  latest_date = coalesce(excluded.latest_date, provider_state.latest_date), fetched_at = excluded.fetched_at
                """,
                [
                    .text(provider), .text(url), .text(base), SQLValue(etag), SQLValue(lastModified), SQLValue(latestDate),
                    .text(clock.now),
                ])
        }
    }

    /// The validators of the last stored response for `url`, for a conditional GET.
    public func storedValidators(provider: String, url: String) throws -> (etag: String?, lastModified: String?)? {
        try db.prepare("SELECT \(ValidatorColumn.sqlList) FROM provider_state WHERE provider = ? AND url = ?")
            .first([.text(provider), .text(url)]) {
                let s = ResultRow<ValidatorColumn>($0)
                return (s.optionalText(.etag), s.optionalText(.lastModified))
            }
    }

    /// Open trips in scope (`name`, or all, or the current trip) and what each still needs.
    public func rateNeeds(trip name: String?, all: Bool) throws -> [TripRateNeeds] {
        let trips: [Trip]
        if let name {
            trips = [try trip(named: name)]
        } else if all {
            trips = try self.trips()
        } else if let current = try currentTrip() {
            trips = [current]
        } else {
            trips = try self.trips()
        }
        var out: [TripRateNeeds] = []
        for t in trips where t.closedAt == nil {
            var codes: Set<String> = []
            var from: String?, to: String?
            try purchaseStore.forEachRateNeed(trip: t.id) { s in
                codes.insert(s.text(.currency))
                from = min(from ?? s.text(.first), s.text(.first))
                to = max(to ?? s.text(.last), s.text(.last))
            }
            guard let f = from.flatMap({ CivilDate(iso: $0) }), let l = to.flatMap({ CivilDate(iso: $0) }) else { continue }
            codes.insert(t.homeCurrency.code)
            out.append(TripRateNeeds(trip: t, currencies: codes.sorted(), from: f, to: min(l, clock.today)))
        }
        return out
    }

    /// Every currency code the ledger's purchases use (purchase and home currencies).
    public func currenciesInUse() throws -> [String] {
        try purchaseStore.currenciesInUse().sorted()
    }
}

extension Ledger {
    /// Codes a provider's cache holds, as base or quote (what a 304 Not Modified confirms).
    public func cachedCurrencies(provider: String) throws -> Set<String> {
        var out: Set<String> = []
        try db.prepare(
            "SELECT DISTINCT base FROM rate_observations WHERE provider = ? UNION SELECT DISTINCT quote FROM rate_observations WHERE provider = ?"
        )
        .forEach([.text(provider), .text(provider)]) { out.insert($0.text(0)) }
        return out
    }
}

/// The columns of `provider_state` a conditional GET is made from.
enum ValidatorColumn: Int32, ColumnList {
    case etag, lastModified

    var sql: StaticString {
        switch self {
        case .etag: "etag"
        case .lastModified: "last_modified"
        }
    }
}
