import TripCore
import TripModel

/// The rate tables' SQL: every statement whose table is `rate_observations` (the providers'
/// cache), `provider_state` (each URL's validators and newest published date) or `manual_rates`
/// (`trip rates set`), and the mapping between their columns and what the ledger reads.
package struct RateStore {
    let db: Database
}

// MARK: the providers' cache

extension RateStore {
    /// Stores one response's observations; a later fetch of the same day replaces the rate.
    package func storeObservations(_ observations: [RateObservation], fetchedAt: String) throws {
        let insert = try db.prepare(
            """
            INSERT INTO rate_observations (trip_id, provider, base, quote, date, rate, fetched_at) VALUES (0, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, provider, base, quote, date) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at
            """)
        for o in observations {
            try insert.run([.text(o.provider), .text(o.base), .text(o.quote), .text(o.date), .text(o.rate), .text(fetchedAt)])
        }
    }

    /// Records a URL's validators and newest date; a response without a date keeps the one known.
    package func storeProviderState(
        provider: String, url: String, base: String, etag: String?, lastModified: String?, latestDate: String?, fetchedAt: String
    ) throws {
        try db.run(
            """
            INSERT INTO provider_state (trip_id, provider, url, base, etag, last_modified, latest_date, fetched_at)
            VALUES (0, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, provider, url) DO UPDATE SET base = excluded.base, etag = excluded.etag,
              last_modified = excluded.last_modified,
              latest_date = coalesce(excluded.latest_date, provider_state.latest_date), fetched_at = excluded.fetched_at
            """,
            [
                .text(provider), .text(url), .text(base), SQLValue(etag), SQLValue(lastModified), SQLValue(latestDate),
                .text(fetchedAt),
            ])
    }

    /// The validators of the last stored response for `url`.
    package func validators(provider: String, url: String) throws -> (etag: String?, lastModified: String?)? {
        try db.prepare("SELECT \(ValidatorColumn.sqlList) FROM provider_state WHERE trip_id = 0 AND provider = ? AND url = ?")
            .first([.text(provider), .text(url)]) {
                let s = ResultRow<ValidatorColumn>($0)
                return (s.optionalText(.etag), s.optionalText(.lastModified))
            }
    }

    /// Codes a provider's cache holds, as base or quote.
    package func cachedCurrencies(provider: String) throws -> Set<String> {
        var out: Set<String> = []
        try db.prepare(
            """
            SELECT DISTINCT base FROM rate_observations WHERE trip_id = 0 AND provider = ?1
            UNION SELECT DISTINCT quote FROM rate_observations WHERE trip_id = 0 AND provider = ?1
            """
        )
        .forEach([.text(provider)]) { out.insert($0.text(0)) }
        return out
    }

    /// The bases a provider's responses were stored under, in `scope`.
    package func bases(of provider: String, in scope: RateScope) throws -> [String] {
        var out: [String] = []
        // In the order of their URLs, as one device's cache always gave them.
        try db.prepare("SELECT base FROM provider_state WHERE provider = ?1 AND trip_id IN (0, ?2) GROUP BY base ORDER BY min(url)")
            .forEach([.text(provider), .integer(scope.trip)]) { out.append($0.text(0)) }
        return out
    }

    /// The provider's latest observation of `base` → `quote` on or before `day`, in `scope`; of
    /// this device's and the trip's copy of one day, the later fetch, as `receiveObservation` keeps.
    package func observation(provider: String, base: String, quote: String, onOrBefore day: CivilDate, in scope: RateScope) throws -> (
        rate: String, date: String, fetchedAt: String
    )? {
        try db.prepare(
            """
            SELECT \(ObservationColumn.sqlList) FROM rate_observations
            WHERE provider = ?1 AND base = ?2 AND quote = ?3 AND date <= ?4
              AND (trip_id = ?5 OR (trip_id = 0 AND (?5 = 0 OR quote IN (SELECT value FROM json_each(?6)))))
            ORDER BY date DESC, fetched_at DESC LIMIT 1
            """
        ).first(
            [.text(provider), .text(base), .text(quote), .text(day.description), .integer(scope.trip), .text(scope.currencies)],
            {
                let s = ResultRow<ObservationColumn>($0)
                return (s.text(.rate), s.text(.date), s.text(.fetchedAt))
            })
    }

    /// The newest date the provider has published for `base`, as an ISO date, in `scope`.
    package func latestPublished(provider: String, base: String, in scope: RateScope) throws -> String? {
        try db.scalarText(
            "SELECT max(latest_date) FROM provider_state WHERE provider = ? AND base = ? AND trip_id IN (0, ?)",
            [.text(provider), .text(base), .integer(scope.trip)])
    }

    /// Per currency (as base or quote), its newest observation's date and provider, of this
    /// device's own fetches.
    package func newestObservations() throws -> [String: (date: String, provider: String)] {
        var latest: [String: (date: String, provider: String)] = [:]
        try db.prepare(
            """
            SELECT quote, max(date), provider FROM rate_observations WHERE trip_id = 0 GROUP BY quote
            UNION ALL
            SELECT base, max(date), provider FROM rate_observations WHERE trip_id = 0 GROUP BY base
            """
        ).forEach { s in
            let code = s.text(0), date = s.text(1)
            if latest[code].map({ $0.date < date }) ?? true { latest[code] = (date, s.text(2)) }
        }
        return latest
    }
}

/// The columns of `provider_state` a conditional GET is made from.
enum ValidatorColumn: Int32, ColumnList {
    case etag, lastModified

    package var sql: StaticString {
        switch self {
        case .etag: "etag"
        case .lastModified: "last_modified"
        }
    }
}

/// The columns of `rate_observations` a cached quote is read from.
enum ObservationColumn: Int32, ColumnList {
    case rate, date, fetchedAt

    package var sql: StaticString {
        switch self {
        case .rate: "rate"
        case .date: "date"
        case .fetchedAt: "fetched_at"
        }
    }
}

// MARK: the cache as a shared trip sends and receives it

extension RateStore {
    /// The cached observations a shared trip has not sent yet (fetched at or after `rates_sent`),
    /// this device's own, into its currencies (the base is the provider's, which every cross of
    /// that provider goes through), from a month before its first purchase; each with its payload.
    package func forEachUnsentObservation(
        trip tripID: Int64, _ body: (_ observation: RateObservation, _ fetchedAt: String, _ payload: String) throws -> Void
    ) throws {
        try db.prepare(
            """
            WITH since (day) AS (
              SELECT coalesce(date(min(date), '-31 days'), date((SELECT start_date FROM trips WHERE id = ?1), '-31 days'), '0000-00-00')
              FROM purchases WHERE trip_id = ?1)
            SELECT o.provider, o.base, o.quote, o.date, o.rate, o.fetched_at,
                   json_object('provider', o.provider, 'base', o.base, 'quote', o.quote, 'date', o.date, 'rate', o.rate,
                               'fetched_at', o.fetched_at)
            FROM rate_observations o
            WHERE o.trip_id = 0
              AND o.fetched_at >= coalesce((SELECT rates_sent FROM shared_trips WHERE trip_id = ?1), '')
              AND o.date >= (SELECT day FROM since)
              AND o.quote IN (SELECT value FROM json_each(?2))
            ORDER BY o.date, o.provider, o.base, o.quote
            """
        ).forEach([.integer(tripID), .text(try currencies(ofTrip: tripID))]) { s in
            try body(
                RateObservation(provider: s.text(0), base: s.text(1), quote: s.text(2), date: s.text(3), rate: s.text(4)), s.text(5),
                s.text(6))
        }
    }

    /// This device's own providers' newest published dates, with their payloads: what decides
    /// whether a rate is still provisional, so it travels with the rates.
    package func forEachPublishedState(
        _ body: (_ provider: String, _ url: String, _ latestDate: String, _ payload: String) throws -> Void
    ) throws {
        try db.prepare(
            """
            SELECT provider, url, latest_date, json_object('provider', provider, 'url', url, 'base', base, 'latest_date', latest_date)
            FROM provider_state WHERE trip_id = 0 AND latest_date IS NOT NULL ORDER BY provider, url
            """
        ).forEach { s in try body(s.text(0), s.text(1), s.text(2), s.text(3)) }
    }

    /// An observation pulled from shared trip `tripID`: kept for that trip's purchases, unless
    /// the trip's copy has a later fetch of it.
    package func receiveObservation(_ o: RateObservation, fetchedAt: String, trip tripID: Int64) throws {
        try db.run(
            """
            INSERT INTO rate_observations (trip_id, provider, base, quote, date, rate, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, provider, base, quote, date) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at
            WHERE excluded.fetched_at > rate_observations.fetched_at
            """,
            [.integer(tripID), .text(o.provider), .text(o.base), .text(o.quote), .text(o.date), .text(o.rate), .text(fetchedAt)])
    }

    /// A provider's newest date pulled from shared trip `tripID`: kept for that trip when it is later.
    package func receiveProviderState(provider: String, url: String, base: String, latestDate: String, trip tripID: Int64, receivedAt: String)
        throws
    {
        try db.run(
            """
            INSERT INTO provider_state (trip_id, provider, url, base, latest_date, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, provider, url) DO UPDATE SET latest_date = excluded.latest_date
            WHERE provider_state.latest_date IS NULL OR excluded.latest_date > provider_state.latest_date
            """, [.integer(tripID), .text(provider), .text(url), .text(base), .text(latestDate), .text(receivedAt)])
    }

    /// The currencies of trip `tripID`: its home, its purchases', its transfers'. The rates of
    /// these are the ones that travel into it when it is shared.
    package func currencyCodes(ofTrip tripID: Int64) throws -> [String] {
        var out: [String] = []
        try db.prepare(
            """
            WITH currencies (code) AS (
              SELECT home_currency FROM trips WHERE id = ?1
              UNION SELECT currency FROM purchases WHERE trip_id = ?1
              UNION SELECT currency FROM transfers WHERE trip_id = ?1)
            SELECT code FROM currencies
            """
        ).forEach([.integer(tripID)]) { out.append($0.text(0)) }
        return out
    }

    /// `currencyCodes(ofTrip:)` as a JSON array, as the queries read it.
    private func currencies(ofTrip tripID: Int64) throws -> String {
        JSONValue.array(try currencyCodes(ofTrip: tripID).map { .string($0) }).serialized
    }
}

// MARK: manual rates

extension ManualRate {
    /// The columns of `manual_rates` a manual rate is read from.
    enum Column: Int32, ColumnList {
        case base, quote, date, rate

        package var sql: StaticString {
            switch self {
            case .base: "base"
            case .quote: "quote"
            case .date: "date"
            case .rate: "rate"
            }
        }
    }

    /// The rate of `row`, or nil when a stored code or date no longer reads.
    init?(row s: ResultRow<Column>) {
        guard let b = CurrencyTable.shared.lookup(s.text(.base)), let q = CurrencyTable.shared.lookup(s.text(.quote)),
            let d = CivilDate(iso: s.text(.date))
        else { return nil }
        self.init(base: b, quote: q, date: d, rate: s.text(.rate))
    }
}

/// A manual rate as it travels: the rate, when it was set, and the version of that write.
package struct ManualRateVersion {
    package let rate: ManualRate
    package let createdAt: String
    package let hlc: Int64
    package let device: String

    package init(rate: ManualRate, createdAt: String, hlc: Int64, device: String) {
        self.rate = rate
        self.createdAt = createdAt
        self.hlc = hlc
        self.device = device
    }

    enum Column: Int32, ColumnList {
        case createdAt, hlc, device

        package var sql: StaticString {
            switch self {
            case .createdAt: "created_at"
            case .hlc: "hlc"
            case .device: "device"
            }
        }
    }
}

extension RateStore {
    /// Sets 1 `version.rate.base` = `rate` `quote` from its day on, this device's own, replacing
    /// the same pair's entry of that day either way round: the inverse pair on the same day would
    /// be ambiguous. `setIn`: the current trip, whose rate it also is when that trip is shared.
    package func setManualRate(_ version: ManualRateVersion, setIn: Int64?) throws {
        let rate = version.rate
        try db.run(
            """
            INSERT INTO manual_rates (trip_id, base, quote, date, rate, created_at, hlc, device, set_in) VALUES (0, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, base, quote, date) DO UPDATE SET
              rate = excluded.rate, created_at = excluded.created_at, hlc = excluded.hlc, device = excluded.device,
              set_in = excluded.set_in
            """,
            [
                .text(rate.base.code), .text(rate.quote.code), .text(rate.date.description), .text(rate.rate), .text(version.createdAt),
                .integer(version.hlc), .text(version.device), SQLValue(setIn),
            ])
        try db.run(
            "DELETE FROM manual_rates WHERE trip_id = 0 AND base = ? AND quote = ? AND date = ?",
            [.text(rate.quote.code), .text(rate.base.code), .text(rate.date.description)])
    }

    /// Every manual rate of `scope`, by pair then date; of one pair (either way round) and day,
    /// the latest version only, as `mergeManualRate` keeps.
    package func manualRates(in scope: RateScope) throws -> [ManualRate] {
        var latest: [String: (rate: ManualRate, hlc: Int64, device: String)] = [:]
        try db.prepare(
            """
            SELECT \(ManualRate.Column.sqlList), \(ManualRateVersion.Column.sqlList) FROM manual_rates
            WHERE (trip_id = ?1 OR (trip_id = 0 AND (?1 = 0 OR set_in = ?1
              OR (base IN (SELECT value FROM json_each(?2)) AND quote IN (SELECT value FROM json_each(?2))))))
            """
        ).forEach([.integer(scope.trip), .text(scope.currencies)]) { statement in
            guard let rate = ManualRate(row: ResultRow(statement)) else { return }
            let v = ResultRow<ManualRateVersion.Column>(statement, base: ManualRate.Column.count)
            let key = [rate.base.code, rate.quote.code].sorted().joined(separator: ">") + "@\(rate.date)"
            let version = (v.int(.hlc), v.text(.device))
            if let kept = latest[key], (kept.hlc, kept.device) >= version { return }
            latest[key] = (rate, version.0, version.1)
        }
        return latest.values.map(\.rate).sorted { ($0.base.code, $0.quote.code, $0.date) < ($1.base.code, $1.quote.code, $1.date) }
    }

    /// The manual rate of `scope` for `from` → `to` on `day`, stored either way round: the latest
    /// on or before the day, else the earliest after; of one day, the latest version (this
    /// device's and a shared trip's copy may differ), then the one stored as `from` → `to`.
    package func manualRate(from: String, to: String, on day: CivilDate, in scope: RateScope) throws -> (base: String, rate: String, date: String)? {
        try db.prepare(
            """
            SELECT \(ManualRate.Column.sqlList) FROM manual_rates
            WHERE ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1)) AND (trip_id = ?4 OR (trip_id = 0 AND (?4 = 0 OR set_in = ?4
              OR (base IN (SELECT value FROM json_each(?5)) AND quote IN (SELECT value FROM json_each(?5))))))
            ORDER BY (date <= ?3) DESC, CASE WHEN date <= ?3 THEN date END DESC, date ASC, hlc DESC, device DESC, base = ?1 DESC
            LIMIT 1
            """
        ).first(
            [.text(from), .text(to), .text(day.description), .integer(scope.trip), .text(scope.currencies)],
            {
                let s = ResultRow<ManualRate.Column>($0)
                return (s.text(.base), s.text(.rate), s.text(.date))
            })
    }

    /// The currencies with a manual rate of `scope` to or from `code`, on any date.
    package func manualPartners(of code: String, in scope: RateScope) throws -> [String] {
        var out: [String] = []
        try db.prepare(
            """
            SELECT DISTINCT CASE WHEN base = ?1 THEN quote ELSE base END FROM manual_rates
            WHERE (base = ?1 OR quote = ?1) AND (trip_id = ?2 OR (trip_id = 0 AND (?2 = 0 OR set_in = ?2
              OR (base IN (SELECT value FROM json_each(?3)) AND quote IN (SELECT value FROM json_each(?3))))))
            """
        ).forEach([.text(code), .integer(scope.trip), .text(scope.currencies)]) { out.append($0.text(0)) }
        return out
    }

    /// This device's own manual rates that travel into shared trip `tripID`, with their versions:
    /// those of two of its currencies (its home, its purchases', its transfers'), and those set
    /// while it was the current trip. A rate of a never-shared trip's currency stays here.
    package func manualRates(travellingTo tripID: Int64) throws -> [ManualRateVersion] {
        var out: [ManualRateVersion] = []
        try db.prepare(
            """
            SELECT \(ManualRate.Column.sqlList), \(ManualRateVersion.Column.sqlList) FROM manual_rates
            WHERE trip_id = 0 AND (trip_id = ?1 OR (trip_id = 0 AND (?1 = 0 OR set_in = ?1
              OR (base IN (SELECT value FROM json_each(?2)) AND quote IN (SELECT value FROM json_each(?2))))))
            ORDER BY base, quote, date
            """
        ).forEach([.integer(tripID), .text(try currencies(ofTrip: tripID))]) { statement in
            let v = ResultRow<ManualRateVersion.Column>(statement, base: ManualRate.Column.count)
            guard let rate = ManualRate(row: ResultRow(statement)) else { return }
            out.append(ManualRateVersion(rate: rate, createdAt: v.text(.createdAt), hlc: v.int(.hlc), device: v.text(.device)))
        }
        return out
    }

    /// A manual rate pulled from shared trip `tripID`: kept for that trip when it is the trip's
    /// latest for its pair (either way round) on its day. The latest is the later clock, then the
    /// greater device id, so every device keeps the same one whatever order they arrive in.
    package func mergeManualRate(_ version: ManualRateVersion, trip tripID: Int64) throws {
        let rate = version.rate
        let key: [SQLValue] = [.text(rate.base.code), .text(rate.quote.code), .text(rate.date.description), .integer(tripID)]
        let newer = try db.scalarInt(
            """
            SELECT 1 FROM manual_rates
            WHERE trip_id = ?4 AND date = ?3 AND ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1)) AND (hlc, device) >= (?5, ?6)
            """, key + [.integer(version.hlc), .text(version.device)])
        guard newer == nil else { return }
        try db.run(
            "DELETE FROM manual_rates WHERE trip_id = ?4 AND date = ?3 AND ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1))", key)
        try db.run(
            "INSERT INTO manual_rates (base, quote, date, trip_id, rate, created_at, hlc, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            key + [.text(rate.rate), .text(version.createdAt), .integer(version.hlc), .text(version.device)])
    }
}
