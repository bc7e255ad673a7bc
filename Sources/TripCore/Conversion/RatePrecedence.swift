/// Which rate converts a pair when several could (README, "Which rate a purchase gets").
///
/// Sources rank by tier: a manual rate (tier 0), then each provider in the configured chain
/// (tier 1, 2, …); the fallback table comes after every tier. A cross ranks as its weaker leg, so
/// two manual legs beat any provider rate, and a manual leg with a provider leg ranks as that
/// provider. Within a tier a direct rate beats a cross; among crosses the one whose older leg is
/// newer wins, then the pivot first in code order, so the choice never depends on query order.
public enum RatePrecedence {
    /// The cross that wins among `crosses` of one tier.
    public static func best(crosses: [RateRoute]) -> RateRoute? {
        crosses.min { a, b in
            let (da, db) = (a.quote.date?.description ?? "", b.quote.date?.description ?? "")
            return da != db ? da > db : (a.via ?? "") < (b.via ?? "")
        }
    }
}
