import ArgumentParser
import RateService
import Rendering
import TripCore
import TripLedger
import TripModel
import TripSharing

extension TripCommand {
    /// `trip config`
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the effective settings and where each came from.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let c = try global.context()
            let s = c.settings
            let settingRows: [(String, String, String)] =
                [
                    ("home_currency", s.homeCurrency.value.code, s.homeCurrency.source),
                    ("rounding", s.rounding.value.rawValue, s.rounding.source),
                    ("tip_base", s.tipOnTaxed.value ? "taxed" : "subtotal", s.tipOnTaxed.source),
                    ("stale_days", String(s.staleDays.value), s.staleDays.source),
                    ("date_order", s.dateOrder.value?.rawValue ?? "none", s.dateOrder.source),
                    ("rates.chain", s.rateChain.value.joined(separator: ", "), s.rateChain.source),
                    ("rates.connect_timeout", String(s.connectTimeout.value), s.connectTimeout.source),
                    ("rates.total_timeout", String(s.totalTimeout.value), s.totalTimeout.source),
                ]
                + s.providerURLs.keys.sorted().map { k in
                    let url = s.baseURL(of: k, environment: c.environment)
                    let source = url == s.providerURLs[k]!.value ? s.providerURLs[k]!.source : "TRIP_RATES_URL"
                    // Credentials in a URL, or keys from the environment, are never printed.
                    let shown = Redaction.scrub(Redaction.mask(url: url), secrets: Redaction.secrets(inEnvironment: c.environment))
                    return ("rates.\(String(k.map { $0 == "-" ? "_" : $0 }))_url", shown, source)
                }
            let remote =
                c.environment["TRIP_REMOTE"].flatMap { $0.isEmpty ? nil : ($0, "TRIP_REMOTE") }
                ?? s.remote.value.map { ($0, s.remote.source) }
            let rows = settingRows + [("sync.remote", remote.map { RemoteServer.redacted($0.0) } ?? "none", remote?.1 ?? s.remote.source)]
            let ledger = c.ledgerPath
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
            let width = rows.map(\.0.count).max() ?? 0
            let vwidth = rows.map(\.1.count).max() ?? 0
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
            emit(global.format, json: .object(json), text: text.map { TextFormat.safe($0) }.joined(separator: "\n"))
        }
    }
}
