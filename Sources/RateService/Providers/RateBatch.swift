import TripCore

/// The validated content of one provider response, ready to cache as a whole.
///
/// Either every observation passed validation or the fetch threw: there is no partial batch.
public struct RateBatch: Sendable, Equatable {
    /// Provider identifier, as in `RateObservation.provider`.
    public var provider: String
    /// Base currency of every observation.
    public var base: String
    /// Observations in the order the provider published them (grouped by date). Empty when
    /// `notModified`. Quotes equal to `base` are left out.
    public var observations: [RateObservation]
    /// Newest publication date in the response; nil when `notModified` or no rates.
    public var latestDate: String?
    /// Validators of this response, to send back next time (conditional GET).
    public var validators: ResponseValidators
    /// The server answered 304: the caller's cached copy is current; nothing else is set.
    public var notModified: Bool
    /// Well-formed codes in the response that `isKnownCurrency` rejected; skipped, sorted.
    public var ignoredCodes: [String]

    public init(
        provider: String, base: String, observations: [RateObservation], latestDate: String?,
        validators: ResponseValidators, notModified: Bool, ignoredCodes: [String]
    ) {
        self.provider = provider
        self.base = base
        self.observations = observations
        self.latestDate = latestDate
        self.validators = validators
        self.notModified = notModified
        self.ignoredCodes = ignoredCodes
    }

    /// The answer to a conditional GET that found the cached copy current.
    static func notModified(provider: String, base: String, response: HTTPResponse, sent: ResponseValidators?) -> RateBatch {
        var validators = response.validators
        if validators.isEmpty, let sent { validators = sent }
        return RateBatch(
            provider: provider, base: base, observations: [], latestDate: nil,
            validators: validators, notModified: true, ignoredCodes: [])
    }
}
