import TripCore

/// The registry of rate providers: config names to provider types.
public enum RateProviders {
    /// Every provider `rates.chain` may name.
    public static let all: [any RateProvider.Type] = [Frankfurter.self, OpenERAPI.self, ECBXML.self]

    /// The provider `name` in `rates.chain` stands for, or `nil` for a name no provider has.
    public static func type(named name: String) -> (any RateProvider.Type)? {
        all.first { $0.providerName == name }
    }

    /// The provider `name` as `settings` configure it; `baseURL` empty means its default.
    public static func configured(_ name: String, baseURL: String, settings: Settings) -> (any RateProvider)? {
        guard let type = type(named: name) else { return nil }
        return type.init(configuredBaseURL: baseURL.isEmpty ? type.defaultBaseURL : baseURL, settings: settings)
    }
}
