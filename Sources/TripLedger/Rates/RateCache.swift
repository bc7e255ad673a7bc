import Storage
import TripCore
import TripModel

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
        try transaction {
            try rateStore.storeObservations(observations, fetchedAt: clock.now)
            try rateStore.storeProviderState(
                provider: provider, url: url, base: base, etag: etag, lastModified: lastModified, latestDate: latestDate,
                fetchedAt: clock.now)
        }
    }

    /// The validators of the last stored response for `url`, for a conditional GET.
    public func storedValidators(provider: String, url: String) throws -> (etag: String?, lastModified: String?)? {
        try rateStore.validators(provider: provider, url: url)
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
        try rateStore.cachedCurrencies(provider: provider)
    }
}
