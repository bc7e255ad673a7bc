import TripCore

/// Text and JSON of `trip config`: every effective setting with where it came from.
public enum SettingsFormat {
    /// One shown setting: its key, its value (any secret already masked by the caller) and its source.
    public typealias Row = (key: String, value: String, source: String)

    /// The settings' rows, then `providerURLs` and `remote` (masked by the caller). `home` is the
    /// home currency new trips get and where it came from, when the ledger sets its own
    /// (`trip init --home`), which wins over the config.
    public static func rows(_ s: Settings, home: (code: String, source: String)? = nil, providerURLs: [Row], remote: Row) -> [Row] {
        [
            ("home_currency", home?.code ?? s.homeCurrency.value.code, home?.source ?? s.homeCurrency.source),
            ("rounding", s.rounding.value.rawValue, s.rounding.source),
            ("tip_base", s.tipOnTaxed.value ? "taxed" : "subtotal", s.tipOnTaxed.source),
            ("stale_days", String(s.staleDays.value), s.staleDays.source),
            ("statement_match_days", String(s.statementMatchDays.value), s.statementMatchDays.source),
            ("date_order", s.dateOrder.value?.rawValue ?? "none", s.dateOrder.source),
            ("rates.chain", s.rateChain.value.joined(separator: ", "), s.rateChain.source),
            ("rates.connect_timeout", String(s.connectTimeout.value), s.connectTimeout.source),
            ("rates.total_timeout", String(s.totalTimeout.value), s.totalTimeout.source),
        ] + providerURLs + [remote]
    }

    /// `rates.frankfurter_url`: a provider URL's key.
    public static func urlKey(provider: String) -> String {
        "rates.\(String(provider.map { $0 == "-" ? "_" : $0 }))_url"
    }

    public static func text(_ rows: [Row], _ s: Settings, ledger: (path: String, source: String)) -> String {
        let width = rows.map(\.key.count).max() ?? 0
        let vwidth = rows.map(\.value.count).max() ?? 0
        var text = rows.map { k, v, src in
            "\(k)\(String(repeating: " ", count: width - k.count)) = \(v)\(String(repeating: " ", count: max(0, vwidth - v.count)))  # \(src)"
        }
        text.append("ledger = \(ledger.path)  # \(ledger.source)")
        text.append("config file: \(s.userFile ?? "none (looked for \(s.searched.joined(separator: ", ")))")")
        text.append("fallback rates: \(s.fallback.perEUR.count) currencies per EUR, \(s.fallback.irrevocable.count) irrevocable euro rates")
        text.append("presets:")
        for name in s.presets.keys.sorted() {
            let p = s.presets[name]!
            text.append("  \(name): \(p.value.description)  # \(p.source)")
        }
        return text.map { TextFormat.safe($0) }.joined(separator: "\n")
    }

    public static func json(_ rows: [Row], _ s: Settings, ledger: (path: String, source: String)) -> JSONValue {
        var json: [String: JSONValue] = [:]
        for (k, v, src) in rows { json[k] = .object(["value": .string(v), "source": .string(src)]) }
        json["presets"] = .object(
            s.presets.mapValues { p in
                .object(["description": .string(p.value.description), "source": .string(p.source)])
            })
        json["fallback_currencies"] = .int(Int64(s.fallback.perEUR.count))
        json["config_file"] = JSONValue(s.userFile)
        json["config_searched"] = .array(s.searched.map { .string($0) })
        json["ledger"] = .object(["value": .string(ledger.path), "source": .string(ledger.source)])
        return .object(json)
    }
}
