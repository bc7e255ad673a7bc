import ArgumentParser
import RateService
import RemoteSync
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip config`
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the effective settings and where each came from.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let c = try global.context()
            let s = c.settings
            let urls = s.providerURLs.keys.sorted().map { k -> SettingsFormat.Row in
                let url = s.baseURL(of: k, environment: c.environment)
                let source = url == s.providerURLs[k]!.value ? s.providerURLs[k]!.source : "TRIP_RATES_URL"
                // Credentials in a URL, or keys from the environment, are never printed.
                let shown = Redaction.scrub(Redaction.mask(url: url), secrets: Redaction.secrets(inEnvironment: c.environment))
                return (SettingsFormat.urlKey(provider: k), shown, source)
            }
            let remote =
                c.environment["TRIP_REMOTE"].flatMap { $0.isEmpty ? nil : ($0, "TRIP_REMOTE") }
                ?? s.remote.value.map { ($0, s.remote.source) }
            // The ledger's own home currency (`trip init --home`) is what new trips get; reading
            // it must not create a ledger.
            let home = try c.ledgerExists ? c.openLedger().defaultHome() : nil
            let rows = SettingsFormat.rows(
                s, home: home.map { ($0.currency.code, $0.source) }, providerURLs: urls,
                remote: ("sync.remote", remote.map { ConnectionRedaction.redact($0.0) } ?? "none", remote?.1 ?? s.remote.source))
            emit(global.format, json: SettingsFormat.json(rows, s, ledger: c.ledgerPath), text: SettingsFormat.text(rows, s, ledger: c.ledgerPath))
        }
    }
}
