/// "Did you mean …?": the known names closest to a mistyped one, for subcommands and currency codes.
public enum Nearest {
    /// Up to `limit` of `candidates` that `typed` is probably a typo of: within one edit
    /// (transpositions count as one) for names up to four letters, two for longer ones, or
    /// starting with what was typed (`rep` → `report`). Closest first, then alphabetical.
    public static func names(to typed: String, among candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(typed.lowercased().utf8)
        guard !target.isEmpty else { return [] }
        let scored = candidates.compactMap { name -> (Int, String)? in
            let bytes = Array(name.lowercased().utf8)
            let d = CurrencyTable.distance(target, bytes)
            let allowed = max(target.count, bytes.count) <= 4 ? 1 : 2
            if d <= allowed { return (d, name) }
            if target.count >= 2, bytes.starts(with: target) { return (allowed + 1, name) }
            return nil
        }
        return scored.sorted { $0 < $1 }.prefix(limit).map(\.1)
    }
}
