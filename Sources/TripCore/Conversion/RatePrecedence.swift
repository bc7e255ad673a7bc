/// Which rate converts a pair when several could (README, "Which rate a purchase gets").
///
/// Sources rank by tier: a manual rate (tier 0), then each provider in the configured chain
/// (tier 1, 2, …); the fallback table comes after every tier. A cross ranks as its weaker leg, so
/// two manual legs beat any provider rate, and a manual leg with a provider leg ranks as that
/// provider. Within a tier a direct rate beats a cross; among crosses the one whose older leg is
/// newer wins, then the pivot first in code order, so the choice never depends on query order.
public enum RatePrecedence {
    /// The tier of one rate of `source` from `provider`; nil for sources that are not tiered.
    public static func tier(source: RateSource, provider: String?, chain: [String]) -> Int? {
        switch source {
        case .manual: return 0
        case .provider: return provider.flatMap { chain.firstIndex(of: $0) }.map { $0 + 1 }
        default: return nil
        }
    }

    /// The tier of a cross: its weaker leg's.
    public static func tier(of legs: [RateLeg], chain: [String]) -> Int? {
        let tiers = legs.map { tier(source: $0.source, provider: $0.provider, chain: chain) }
        guard !tiers.contains(nil) else { return nil }
        return tiers.compactMap { $0 }.max()
    }

    /// The cross that wins among `crosses` of one tier.
    public static func best(crosses: [RateQuote]) -> RateQuote? {
        crosses.min { a, b in
            let (da, db) = (a.date?.description ?? "", b.date?.description ?? "")
            return da != db ? da > db : (a.via ?? "") < (b.via ?? "")
        }
    }
}
