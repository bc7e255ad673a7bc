import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

/// Shell completion candidates (`trip --generate-completion-script bash|zsh|fish`).
///
/// Fixed lists (currency codes, rounding modes) are written into the script. Trip names, presets
/// and the formats of the command being typed are asked of `trip` itself while completing: it reads
/// the ledger and the config offline, and prints nothing when there is no ledger yet.
enum Completions {
    static var currencies: CompletionKind { .list(CurrencyTable.shared.codes) }
    static var roundingModes: CompletionKind { .list(RoundingMode.allCases.map(\.rawValue)) }
    static var tripNames: CompletionKind { .custom { words, _, _ in tripNames(words) } }
    static var presets: CompletionKind { .custom { words, _, _ in presetNames(words) } }
    /// Only the formats the command on the line accepts (`GlobalOptions.formatsByCommand`).
    static var formats: CompletionKind { .custom { words, _, _ in formatNames(words) } }

    /// The trips of the ledger the command line names (`--db`, `-f`), else `TRIP_DB` or the default.
    static func tripNames(_ words: [String]) -> [String] {
        let env = TextFile.environment()
        let path = Ledger.defaultPath(flag: value(of: ["--db", "-f"], in: words), environment: env).path
        // Completing must never create a ledger.
        guard TextFile.read(path, limit: 0) != nil,
            let settings = try? settings(words, env), let clock = try? Clock.fromEnvironment(env),
            let ledger = try? Ledger(path: path, settings: settings, clock: clock),
            let trips = try? ledger.trips()
        else { return [] }
        return trips.map(\.name)
    }

    static func presetNames(_ words: [String]) -> [String] {
        guard let s = try? settings(words, TextFile.environment()) else { return [] }
        return s.presets.keys.sorted() + ["none"]
    }

    static func formatNames(_ words: [String]) -> [String] {
        let command = TripCommand.hoistGlobalOptions(Array(words.dropFirst())).first ?? ""
        return (GlobalOptions.formatsByCommand[command] ?? [.text, .json]).map(\.rawValue)
    }

    static func settings(_ words: [String], _ env: [String: String]) throws -> Settings {
        try Settings.load(configPath: value(of: ["--config"], in: words), environment: env, fileReader: { TextFile.read($0) })
    }

    /// The value of the last of `names` on the line, as `--db X` or `--db=X`.
    static func value(of names: [String], in words: [String]) -> String? {
        var found: String?
        for (i, w) in words.enumerated() {
            if names.contains(w), i + 1 < words.count { found = words[i + 1] }
            for n in names where n.hasPrefix("--") && w.hasPrefix(n + "=") { found = String(w.dropFirst(n.count + 1)) }
        }
        return found
    }
}
