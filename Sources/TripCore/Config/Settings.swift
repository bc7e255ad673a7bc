import Embedded

/// The effective settings: the shipped defaults in `config/`, overridden by the user's config
/// file. Each value remembers where it came from, for `trip config`.
public struct Settings: Sendable {
    /// A setting's value and the file (and line) it came from.
    public struct Sourced<Value: Sendable>: Sendable {
        public let value: Value
        public let source: String
    }

    public var homeCurrency: Sourced<Currency>
    public var rounding: Sourced<RoundingMode>
    public var tipOnTaxed: Sourced<Bool>
    public var staleDays: Sourced<Int>
    /// `statement_match_days`: how many days a statement's row may be from the purchase it matches.
    public var statementMatchDays: Sourced<Int>
    /// How slash dates (`3/5`) are read; nil: only when one reading is possible.
    public var dateOrder: Sourced<DateOrder?>
    public var rateChain: Sourced<[String]>
    public var providerURLs: [String: Sourced<String>]
    public var ecbHistory: Sourced<String>
    public var connectTimeout: Sourced<Int>
    public var totalTimeout: Sourced<Int>
    public var presets: [String: Sourced<Preset>]
    /// `[sync] remote`: the PostgreSQL server of shared trips, as a libpq connection string
    /// (`TRIP_REMOTE` overrides it). Never printed with its password.
    public var remote: Sourced<String?>
    public var fallback: FallbackTable
    /// The user config file that was read, if any.
    public var userFile: String?
    /// Where a user config file was looked for, in order.
    public var searched: [String]

    public static let knownProviders = ["frankfurter", "open-er-api", "ecb"]

    /// Loads the defaults and the user's file: `configPath` (from `--config`), else `TRIP_CONFIG`,
    /// else `$XDG_CONFIG_HOME/trip/config.toml` (`~/.config/...`). Only an explicitly named file
    /// must exist.
    public static func load(
        configPath: String?, environment env: [String: String],
        isFolder: (String) -> Bool = TextFile.isDirectory,
        fileReader: (String) -> String?
    ) throws(TripError) -> Settings {
        var s = try defaults()
        var candidates: [(String, Bool)] = []
        if let p = configPath {
            candidates.append((p, true))
        } else if let p = env["TRIP_CONFIG"], !p.isEmpty {
            candidates.append((p, true))
        } else {
            let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"].map { $0 + "/.config" } ?? ".config")
            candidates.append((base + "/trip/config.toml", false))
        }
        for (path, required) in candidates {
            s.searched.append(path)
            if isFolder(path) { throw .configIsFolder(path: path) }
            guard let text = fileReader(path) else {
                if required { throw .configNotFound(path: path) }
                continue
            }
            try s.apply(ConfigFile(origin: path, text: text))
            s.userFile = path
        }
        return s
    }

    /// The shipped defaults alone.
    public static func defaults() throws(TripError) -> Settings {
        let settingsFile = try ConfigFile(origin: "config/settings.toml", text: String(decoding: Embedded.settings, as: UTF8.self))
        let placeholder = "config/settings.toml"
        var s = Settings(
            homeCurrency: Sourced(value: Currency(code: "USD", minorUnits: 2, name: "US Dollar"), source: placeholder),
            rounding: Sourced(value: .halfUp, source: placeholder),
            tipOnTaxed: Sourced(value: false, source: placeholder),
            staleDays: Sourced(value: 7, source: placeholder), statementMatchDays: Sourced(value: 3, source: placeholder),
            dateOrder: Sourced(value: nil, source: placeholder),
            rateChain: Sourced(value: ["frankfurter", "open-er-api"], source: placeholder),
            providerURLs: [:], ecbHistory: Sourced(value: "90d", source: placeholder),
            connectTimeout: Sourced(value: 5, source: placeholder), totalTimeout: Sourced(value: 20, source: placeholder),
            presets: [:], remote: Sourced(value: nil, source: placeholder), fallback: FallbackTable(), userFile: nil, searched: [])
        try s.apply(settingsFile)
        try s.apply(ConfigFile(origin: "config/presets.toml", text: String(decoding: Embedded.presets, as: UTF8.self)))
        try s.fallback.merge(ConfigFile(origin: "config/fallback_rates.toml", text: String(decoding: Embedded.fallbackRates, as: UTF8.self)))
        return s
    }

    /// Applies one file's entries over the current values. Unknown keys are errors, so that a
    /// typo in a user file is reported instead of silently ignored.
    public mutating func apply(_ file: ConfigFile) throws(TripError) {
        var presetFields: [String: [ConfigFile.Entry]] = [:]
        for e in file.entries {
            let here = e.line > 0 ? "\(file.origin):\(e.line)" : file.origin
            func bad(_ message: String) -> TripError { .badConfig(file: file.origin, line: e.line, message: message) }
            switch (e.section, e.key) {
            case ("", "home_currency"):
                homeCurrency = Sourced(value: try CurrencyTable.shared.currency(for: e.value), source: here)
            case ("", "rounding"):
                guard let m = RoundingMode(userText: e.value) else { throw bad("rounding must be half-up, half-even, floor or ceiling") }
                rounding = Sourced(value: m, source: here)
            case ("", "tip_base"):
                guard e.value == "subtotal" || e.value == "taxed" else { throw bad("tip_base must be \"subtotal\" or \"taxed\"") }
                tipOnTaxed = Sourced(value: e.value == "taxed", source: here)
            case ("", "stale_days"):
                guard let d = Int(e.value), d >= 0, d <= 3660 else { throw bad("stale_days must be a whole number of days") }
                staleDays = Sourced(value: d, source: here)
            case ("", "statement_match_days"):
                guard let d = Int(e.value), (0...31).contains(d) else { throw bad("statement_match_days must be 0 to 31 days") }
                statementMatchDays = Sourced(value: d, source: here)
            case ("", "date_order"):
                guard let o = DateOrder(rawValue: e.value) else { throw bad("date_order must be \"dmy\", \"mdy\" or \"ymd\"") }
                dateOrder = Sourced(value: o, source: here)
            case ("rates", "chain"):
                let names = e.value.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty && $0 != "fallback" }
                for n in names where !Settings.knownProviders.contains(n) {
                    throw bad("unknown provider \(quoted(n)); known: \(Settings.knownProviders.joined(separator: ", "))")
                }
                rateChain = Sourced(value: names, source: here)
            case ("rates", let k) where k.hasSuffix("_url"):
                let name = String(k.dropLast(4)).map { $0 == "_" ? "-" : $0 }
                guard Settings.knownProviders.contains(String(name)) else { throw bad("unknown provider URL key \(k)") }
                providerURLs[String(name)] = Sourced(value: e.value, source: here)
            case ("rates", "ecb_history"):
                guard ["daily", "90d", "full"].contains(e.value) else { throw bad("ecb_history must be daily, 90d or full") }
                ecbHistory = Sourced(value: e.value, source: here)
            case ("rates", "connect_timeout"), ("rates", "total_timeout"):
                guard let t = Int(e.value), (1...600).contains(t) else { throw bad("\(e.key) must be 1 to 600 seconds") }
                if e.key == "connect_timeout" {
                    connectTimeout = Sourced(value: t, source: here)
                } else {
                    totalTimeout = Sourced(value: t, source: here)
                }
            case ("sync", "remote"):
                remote = Sourced(value: e.value.isEmpty ? nil : e.value, source: here)
            case ("fallback", _), ("irrevocable", _):
                continue
            case (let section, _) where section.hasPrefix("preset."):
                presetFields[String(section.dropFirst(7)), default: []].append(e)
            default:
                throw bad("unknown setting \(e.section.isEmpty ? e.key : "[\(e.section)] \(e.key)")")
            }
        }
        for (name, fields) in presetFields {
            presets[name.uppercased()] = Sourced(
                value: try Settings.preset(name.uppercased(), fields, file.origin),
                source: "\(file.origin):\(fields[0].line)")
        }
        if file.entries.contains(where: { $0.section == "fallback" || $0.section == "irrevocable" }),
            file.origin != "config/fallback_rates.toml"
        {
            try fallback.merge(file)
        }
    }

    static func preset(_ name: String, _ fields: [ConfigFile.Entry], _ origin: String) throws(TripError) -> Preset {
        var description = "", source = ""
        var service: AdjustmentSpec?, tax: AdjustmentSpec?, tip: AdjustmentSpec?
        var included = false
        var rounding: RoundingMode?
        var currencies: [String] = []
        for e in fields {
            switch e.key {
            case "description": description = e.value
            case "source": source = e.value
            case "service": service = try AdjustmentSpec.parse(e.value, field: "preset \(name) service")
            case "tax": tax = try AdjustmentSpec.parse(e.value, field: "preset \(name) tax")
            case "tip": tip = try AdjustmentSpec.parse(e.value, field: "preset \(name) tip")
            case "tax_included": included = e.value == "true"
            case "currencies":
                currencies = []
                for code in e.value.split(whereSeparator: { $0 == "," || $0 == " " }) {
                    guard let c = CurrencyTable.shared.lookup(String(code)) else {
                        throw .badConfig(file: origin, line: e.line, message: "currencies: unknown ISO 4217 code \(quoted(String(code)))")
                    }
                    currencies.append(c.code)
                }
            case "rounding":
                guard let m = RoundingMode(userText: e.value) else {
                    throw .badConfig(file: origin, line: e.line, message: "rounding must be half-up, half-even, floor or ceiling")
                }
                rounding = m
            default:
                throw .badConfig(file: origin, line: e.line, message: "unknown preset field \(e.key)")
            }
        }
        return Preset(
            name: name, description: description, source: source, service: service, tax: tax,
            taxIncluded: included, tip: tip, rounding: rounding, currencies: currencies)
    }

    /// Looks a preset up by name, case-insensitively.
    public func preset(named name: String) throws(TripError) -> Preset {
        guard let p = presets[name.uppercased()] else {
            throw .presetNotFound(name, available: presets.keys.sorted())
        }
        return p.value
    }

    /// The base URL of `provider`: `TRIP_RATES_URL` for the first in the chain, else config.
    public func baseURL(of provider: String, environment env: [String: String]) -> String {
        if provider == rateChain.value.first, let u = env["TRIP_RATES_URL"], !u.isEmpty { return u }
        return providerURLs[provider]?.value ?? ""
    }
}
