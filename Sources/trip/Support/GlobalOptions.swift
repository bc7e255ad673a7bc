import ArgumentParser
import TripCore
import TripLedger

/// `--format`: `text` for people, `json` for scripts (a documented contract, see README).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The ledger file. Default: $TRIP_DB, else $XDG_DATA_HOME/trip/ledger.sqlite.")
    var db: String?

    @Option(help: "A config file. Default: $TRIP_CONFIG, else $XDG_CONFIG_HOME/trip/config.toml.")
    var config: String?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    /// The environment, settings and clock of this command.
    func context() throws -> CommandContext {
        let env = TextFile.environment()
        let settings = try Settings.load(configPath: config, environment: env, fileReader: { TextFile.read($0) })
        let clock = try Clock.fromEnvironment(env)
        StartupTrace.lap("settings")
        return CommandContext(environment: env, settings: settings, clock: clock, global: self)
    }

    /// Opens the ledger this command works on.
    func openLedger() throws -> Ledger {
        let c = try context()
        return try c.openLedger()
    }
}

struct CommandContext {
    let environment: [String: String]
    let settings: Settings
    let clock: Clock
    let global: GlobalOptions

    var ledgerPath: (path: String, source: String) { Ledger.defaultPath(flag: global.db, environment: environment) }

    func openLedger() throws -> Ledger {
        let ledger = try Ledger(path: ledgerPath.path, settings: settings, clock: clock)
        StartupTrace.lap("open ledger")
        return ledger
    }
}

/// Prints a result: its JSON document, or its text.
func emit(_ format: OutputFormat, json: @autoclosure () -> JSONValue, text: @autoclosure () -> String) {
    switch format {
    case .json: print(json().serialized)
    case .text: print(text())
    }
}
