import RateService
import TripCore
import TripLedger
import TripModel

/// `trip rates sync`: asks the configured provider chain for what the ledger needs, caches each
/// validated response in its own transaction, then re-rates the provisional purchases of the trips
/// in scope in one transaction.
///
/// Requests: for each provider in order, one time-series request per trip (where the API has time
/// series) plus one "latest" request. A later provider is asked only while some needed currency is
/// still missing. Nothing is retried: a rate limit is reported with its wait.
public struct RateSync<Client: HTTPFetching> {
    let ledger: Ledger
    let client: Client
    let environment: [String: String]
    /// Progress lines (stderr on a terminal); `nil` for silence.
    let progress: ((String) -> Void)?

    public init(ledger: Ledger, client: Client, environment: [String: String], progress: ((String) -> Void)? = nil) {
        self.ledger = ledger
        self.client = client
        self.environment = environment
        self.progress = progress
    }

    /// With `onlyIfNeeded` (`trip rates sync`), a scope with nothing provisional makes no request
    /// and reports `nothingToSync`; otherwise "latest" is refreshed anyway.
    public func run(trip: String?, all: Bool, onlyIfNeeded: Bool = false) throws -> RatesSyncOutcome {
        let settings = ledger.settings
        let today = ledger.clock.today.description
        let secrets = Redaction.secrets(inEnvironment: environment)
        let needs = try ledger.rateNeeds(trip: trip, all: all)
        var outcome = RatesSyncOutcome()
        // Nothing provisional: say so without a request, which also works offline.
        if onlyIfNeeded && needs.isEmpty {
            outcome.nothingToSync = true
            return outcome
        }
        // Per trip, the currencies still lacking a provider; emptied as providers answer.
        var wanted: [Int64: Set<String>] = [:]
        for n in needs { wanted[n.trip.id] = Set(n.currencies) }
        // History may hold codes since withdrawn (HRK, BGN): keep any code trip knows. A "latest"
        // table is only ever used for today's purchases: keep active ISO 4217 codes only.
        let isKnown: (String) -> Bool = { CurrencyTable.shared.lookup($0) != nil }
        let isActive: (String) -> Bool = { CurrencyTable.shared.isActiveCode($0) }

        for name in settings.rateChain.value {
            let stillWanted = wanted.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            // The first provider always refreshes "latest"; later ones only fill gaps.
            if name != settings.rateChain.value.first && stillWanted.isEmpty { break }
            let base = settings.baseURL(of: name, environment: environment)
            guard let provider = RateProviders.configured(name, baseURL: base, settings: settings) else { continue }
            let plan = RatePlan(
                today: today,
                spans: needs.filter { !(wanted[$0.trip.id] ?? []).isEmpty }.map {
                    RatePlan.Span(tripName: $0.trip.name, from: $0.from.description, to: $0.to.description)
                },
                isKnownCurrency: type(of: provider).coverage == .history ? isKnown : isActive)
            var supplied: Set<String> = []
            for request in provider.requests(for: plan, using: client) {
                progress?("rates: \(name): \(request.label)")
                // The ledger keys its cache by URL: store it masked, so no key is ever written to disk.
                let cacheKey = Redaction.scrub(Redaction.mask(url: request.url), secrets: secrets)
                let stored = try ledger.storedValidators(provider: name, url: cacheKey)
                let validators = stored.map { ResponseValidators(etag: $0.etag, lastModified: $0.lastModified) }
                do {
                    let batch = try request.fetch(validators)
                    // Cached under the chain's name for the provider, which the resolver asks for.
                    let observations = batch.observations.map {
                        RateObservation(provider: name, base: $0.base, quote: $0.quote, date: $0.date, rate: $0.rate)
                    }
                    try ledger.storeRates(
                        observations, provider: name, base: batch.base, url: cacheKey, etag: batch.validators.etag,
                        lastModified: batch.validators.lastModified, latestDate: batch.latestDate)
                    outcome.responses += 1
                    outcome.observations += observations.count
                    if batch.notModified {
                        supplied.formUnion(try ledger.cachedCurrencies(provider: name))
                    } else {
                        supplied.insert(batch.base)
                        for o in batch.observations { supplied.insert(o.quote) }
                    }
                } catch let error as FetchError {
                    // Keys from the environment (say, inside TRIP_RATES_URL) never reach a message.
                    outcome.failures.append(RatesSyncFailure(provider: name, message: error.scrubbing(secrets).description))
                    // After a timeout or an unreachable host, the provider's other requests would
                    // only wait out the same limit again: one limit per provider bounds a hostile
                    // or dead host.
                    if error.meansUnreachable { break }
                }
            }
            for id in wanted.keys { wanted[id]!.subtract(supplied) }
        }
        for (id, codes) in wanted {
            for code in codes where needs.contains(where: { $0.trip.id == id }) {
                outcome.missing[code] = "no provider has it"
            }
        }
        if outcome.responses == 0, let first = outcome.failures.first {
            let more =
                outcome.failures.count > 1 ? " (and \(outcome.failures.count - 1) more request\(outcome.failures.count == 2 ? "" : "s") failed)" : ""
            var cause = first.message
            while cause.hasSuffix(".") { cause.removeLast() }
            throw TripError.unavailable("rates sync: \(first.provider): \(cause)\(more); nothing was changed")
        }
        progress?("rates: re-rating")
        try ledger.inOneTransaction {
            for n in needs {
                outcome.trips.append((n.trip, try ledger.rerate(tripID: n.trip.id)))
            }
        }
        return outcome
    }
}

extension HTTPClient {
    /// The client `trip rates sync` uses: the configured timeouts, `User-Agent: trip/VERSION`,
    /// and the environment's secrets (`Redaction.secrets(inEnvironment:)`) masked in its errors.
    ///
    /// The low-speed window is the shorter of 10 s and the total timeout, so a short total
    /// (as tests configure) still leaves the total limit as the last word.
    public static func forRatesSync(settings: Settings, version: String, environment: [String: String] = [:]) -> HTTPClient {
        let total = settings.totalTimeout.value
        return HTTPClient(
            configuration: .init(
                version: version, connectTimeout: .seconds(settings.connectTimeout.value), totalTimeout: .seconds(total),
                lowSpeedTime: .seconds(min(10, total)), secrets: Redaction.secrets(inEnvironment: environment)))
    }
}
