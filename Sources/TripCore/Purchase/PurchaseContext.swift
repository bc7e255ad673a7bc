/// What building a purchase needs from its surroundings, as plain values: the trip it goes on,
/// the settings (presets, default rounding, tip base) and the clock (today, how dates are read).
public struct PurchaseContext: Sendable {
    public let trip: PurchaseTrip
    public let settings: Settings
    public let clock: Clock

    public init(trip: PurchaseTrip, settings: Settings, clock: Clock) {
        self.trip = trip
        self.settings = settings
        self.clock = clock
    }
}

/// The parts of a trip that a purchase's rules read.
public struct PurchaseTrip: Sendable, Equatable {
    public let id: Int64
    public let homeCurrency: Currency
    public let localCurrency: Currency?
    /// The trip's default preset names, at most one per currency, as stored.
    public let presets: [String]

    public init(id: Int64, homeCurrency: Currency, localCurrency: Currency?, presets: [String]) {
        self.id = id
        self.homeCurrency = homeCurrency
        self.localCurrency = localCurrency
        self.presets = presets
    }

    /// The preset a purchase in `currency` gets from this trip when none is given: the first of
    /// the trip's presets that `applies(to:)` the currency; none when it is no longer configured.
    public func defaultPreset(for currency: Currency, settings: Settings) -> String? {
        presets.first { name in
            (try? settings.preset(named: name))?.applies(to: currency.code, local: localCurrency?.code) ?? false
        }
    }
}
