import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format`: `text` for people, `json` for scripts (a documented contract, see README). The
/// others are for `report` (csv, markdown, html) and `export` (csv, json, ledger, beancount); other
/// commands reject them with `require(_:)`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv, markdown, html, ledger, beancount
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: [.long, .customShort("f")], help: "The ledger file. Default: $TRIP_DB, else $XDG_DATA_HOME/trip/ledger.sqlite.",
        completion: .file(extensions: ["sqlite"]))
    var db: String?

    @Option(help: "A config file. Default: $TRIP_CONFIG, else $XDG_CONFIG_HOME/trip/config.toml.", completion: .file(extensions: ["toml"]))
    var config: String?

    /// Read as text and checked in `validate()`, so that a format the command lacks and one that
    /// does not exist get the same message, listing only what this command takes.
    @Option(
        name: [.customLong("format"), .customShort("O")],
        help: ArgumentHelp(
            "Output format: text or json (report: also csv, markdown, html; export: csv, json, ledger, beancount).",
            valueName: "format"),
        completion: Completions.formats)
    var formatName: String = "text"

    /// The output format; valid once `validate()` has run.
    var format: OutputFormat { OutputFormat(rawValue: formatName) ?? .text }

    /// Which formats each command accepts; commands not listed take text and json.
    static let formatsByCommand: [String: [OutputFormat]] = [
        "report": [.text, .json, .csv, .markdown, .html],
        // `export` has no text form: without `--format` (or with `--format text`) it exits 64.
        "export": [.csv, .json, .ledger, .beancount],
    ]

    /// Rejects a `--format` the command does not offer (exit 64). The command is the first
    /// argument once global options typed before it are moved after it, as `TripCommand.main` does.
    func validate() throws {
        let command = TripCommand.hoistGlobalOptions(Array(CommandLine.arguments.dropFirst())).first ?? ""
        try require(GlobalOptions.formatsByCommand[command] ?? [.text, .json], command: command)
    }

    /// Fails with a usage error (64) unless `--format` is one of `allowed`.
    func require(_ allowed: [OutputFormat], command: String) throws {
        guard let chosen = OutputFormat(rawValue: formatName), allowed.contains(chosen) else {
            let shown = formatName.isEmpty || formatName.contains(" ") ? "\"\(formatName)\"" : formatName
            throw ValidationError("--format \(shown) is not available for `\(command)`; use \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// The environment, settings and clock of this command.
    func context() throws -> CommandContext {
        let env = TextFile.environment()
        let settings = try Settings.load(configPath: config, environment: env, fileReader: { TextFile.read($0) })
        let clock = try Clock.fromEnvironment(env)
        StartupTrace.lap("settings")
        return CommandContext(environment: env, settings: settings, clock: clock, global: self)
    }

    /// Opens the ledger this command works on; only `init`, `new`, `import` and `demo` pass
    /// `create` (every other command on a missing ledger exits 66 and creates nothing).
    func openLedger(create: Bool = false) throws -> Ledger {
        let c = try context()
        return try c.openLedger(create: create)
    }
}

struct CommandContext {
    let environment: [String: String]
    let settings: Settings
    let clock: Clock
    let global: GlobalOptions

    var ledgerPath: (path: String, source: String) { Ledger.defaultPath(flag: global.db, environment: environment) }

    /// Whether a file is at the ledger's path (a command that may create the ledger asks first).
    var ledgerExists: Bool { access(ledgerPath.path, F_OK) == 0 }

    func openLedger(create: Bool = false) throws -> Ledger {
        // An empty path would silently fall back to the default ledger.
        if global.db == "" { throw TripError.usage("--db: the ledger path is empty") }
        if global.db == nil && environment["TRIP_DB"] == "" { throw TripError.usage("TRIP_DB: the ledger path is empty") }
        let ledger = try Ledger(path: ledgerPath.path, settings: settings, clock: clock, create: create)
        StartupTrace.lap("open ledger")
        return ledger
    }
}

/// Prints a result: its JSON document for `--format json`, else its text. Commands that offer
/// other formats check them first (`GlobalOptions.require`). The text goes through
/// `TextFormat.safeLines`, so no command can print a control character from user text raw.
func emit(_ format: OutputFormat, json: @autoclosure () -> JSONValue, text: @autoclosure () -> String) {
    switch format {
    case .json: print(json().serialized)
    default: print(TextFormat.safeLines(text()))
    }
}
