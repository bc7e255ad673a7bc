import ArgumentParser
import RemoteSync
import Storage
import SyncRules
import TripCore
import TripLedger
import TripModel

/// `trip`: an offline-first travel expense tracker. This target only parses arguments, opens the
/// ledger, calls one TripLedger operation and renders its result.
@main
struct TripCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "trip",
        abstract: "Log travel purchases in any currency; get exact totals in your home currency.",
        discussion: """
            Exit codes: 0 success, 64 usage, 65 bad data, 66 no ledger, 69 unavailable (network), 70 internal, 73 cannot write, 74 I/O error, 77 permission (server).
            Environment: TRIP_DB (ledger), TRIP_CONFIG (config file), TRIP_TODAY (pins today), NO_COLOR.
            """,
        version: version,
        subcommands: [
            Init.self, New.self, Trips.self, Use.self, Show.self, Rename.self, Presets.self, Close.self, Reopen.self,
            Delete.self,
            Add.self, Refund.self, List.self, Edit.self, Remove.self, Convert.self, Rates.self, Report.self,
            Config.self, Demo.self, Export.self, Import.self, Backup.self, Restore.self,
            MemberGroup.self, Members.self, WhoAmI.self, Balances.self, Settle.self, TransferGroup.self, Transfers.self,
            RemoteGroup.self, Share.self, Unshare.self, Join.self, Sync.self, Conflicts.self, Resolve.self,
        ]
    )

    /// Runs a command and turns every failure into one line on stderr and a sysexits code.
    static func main() {
        var arguments = hoistGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        if let early = NegativeValueCheck.reject(arguments) ?? SplitPercentCheck.reject(arguments) { fail(early) }
        arguments = DateOffsetArguments.join(arguments)
        if let unknown = unknownCommand(arguments) { fail(unknown) }
        if arguments.first == "--version" { print(version); ProcessExit.exit(0) }
        if arguments.isEmpty { arguments = ["--help"] }
        do {
            StartupTrace.lap("main")
            var command = try parseCommand(arguments)
            StartupTrace.lap("parse arguments")
            try command.run()
            StartupTrace.lap("run")
            StartupTrace.peakMemory()
            ProcessExit.exit(0)
        } catch let error as TripError {
            fail(error)
        } catch let error as SQLiteError {
            ProcessExit.ledgerFailure(error)
        } catch let error as LedgerFileError {
            ProcessExit.ledgerFileFailure(error)
        } catch let error as SharingError {
            ProcessExit.printError("trip: \(error.description)")
            ProcessExit.exit(error.exitCode)
        } catch let error as SyncApplyError {
            ProcessExit.printError("trip: \(error.description)")
            ProcessExit.exit(70)
        } catch let error as ExitCode {
            // A command that printed its own output and only sets the exit code.
            ProcessExit.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                ProcessExit.exit(0)
            }
            // One line: argument-parser lists choices on lines of their own ("- text").
            let message = message(for: error).split(separator: "\n").map { $0.trimmingSpaces }
                .filter { !$0.isEmpty }.joined(separator: " ")
            ProcessExit.printError("trip: \(ParserMessage.restyle(message))")
            ProcessExit.exit(code.rawValue == 1 ? 70 : code.rawValue)
        }
    }

    /// Parses only the named leaf subcommand's arguments when that is unambiguous: building the whole
    /// command tree is a noticeable part of every start (`TRIP_TRACE=1`, `make bench`). Help requests
    /// and command groups (`rates`) go through the root parser, so usage and help texts are unchanged.
    /// A plain `trip add` line does not reach argument-parser at all (`AddFastPath`).
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if arguments.first == "add", let add = AddFastPath.parse(arguments.dropFirst()) { return add }
        let wantsHelp = arguments.contains { $0 == "--help" || $0 == "-h" || $0 == "help" || $0 == "--experimental-dump-help" }
        if let name = arguments.first, !wantsHelp,
            let leaf = configuration.subcommands.first(where: { TripCommand.name(of: $0) == name }),
            leaf.configuration.subcommands.isEmpty
        {
            return try leaf.parse(Array(arguments.dropFirst()))
        }
        return try parseAsRoot(arguments)
    }

    /// Options of `GlobalOptions` that may also come before the subcommand, as with `git -C` or
    /// `hledger -f`; each takes a value.
    static let globalOptionNames: Set<String> = ["--db", "--config", "--format", "-f", "-O"]

    /// Moves global options typed before the subcommand (`trip --db work.sqlite report`) to just
    /// after its name (`report --db work.sqlite`), where the argument parser reads them: it only
    /// accepts a subcommand's options after the subcommand. `GlobalOptions.validate` runs the same
    /// rewrite to learn the command, so `formatsByCommand` sees `report`, not `--format`.
    static func hoistGlobalOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if globalOptionNames.contains(a), i + 1 < arguments.count {
                leading += [a, arguments[i + 1]]
                i += 2
            } else if a.hasPrefix("--"), let eq = a.firstIndex(of: "="), globalOptionNames.contains(String(a[..<eq])) {
                leading.append(a)
                i += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[i...])
        if rest.first == "help" { return rest }
        // After the whole command path: `trip --db x rates sync` → `rates sync --db x`.
        var position = 0
        var level = configuration.subcommands
        while position < rest.count, let command = level.first(where: { TripCommand.name(of: $0) == rest[position] }) {
            position += 1
            level = command.configuration.subcommands
        }
        // A mistyped command word stays first, so that `unknownCommand` can name the nearest one;
        // a group with a default subcommand (`transfer`) reads it as that subcommand's argument.
        let defaulted = position > 0 && groupCommand(["trip"] + rest[..<position])?.configuration.defaultSubcommand != nil
        if !level.isEmpty, !defaulted, position < rest.count, !rest[position].hasPrefix("-") { position += 1 }
        rest.insert(contentsOf: leading, at: position)
        return rest
    }

    /// A usage error for a subcommand name that does not exist (`trip lsit`, `trip rates snyc`,
    /// `trip help ad`), naming the nearest ones; `nil` when the command path is fine.
    static func unknownCommand(_ arguments: [String]) -> TripError? {
        var words = arguments[...]
        let isHelp = words.first == "help"
        if isHelp { words = words.dropFirst() }
        var path = ["trip"]
        var level = configuration.subcommands
        for word in words {
            if level.isEmpty || word.hasPrefix("-") { return nil }
            guard let command = level.first(where: { TripCommand.name(of: $0) == word }) else {
                // `trip transfer Ana Ben 5`: a group with a default subcommand takes its arguments.
                if let group = path.count > 1 ? groupCommand(path) : nil, group.configuration.defaultSubcommand != nil { return nil }
                let names = level.map { TripCommand.name(of: $0) }
                let near = Nearest.names(to: word, among: names + (path.count == 1 && !isHelp ? ["help"] : []))
                let hint =
                    near.isEmpty
                    ? "; `\(path.joined(separator: " ")) --help` lists them"
                    : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"
                let group = path.dropFirst().joined(separator: " ")
                return .usage("\(group.isEmpty ? "" : group + ": ")unknown command \(quoted(word))\(hint)")
            }
            path.append(word)
            level = command.configuration.subcommands
        }
        return nil
    }

    /// The command at `path` (`["trip", "transfer"]`), if every word names one.
    static func groupCommand(_ path: [String]) -> (any ParsableCommand.Type)? {
        var command: (any ParsableCommand.Type)?
        var level = configuration.subcommands
        for word in path.dropFirst() {
            guard let c = level.first(where: { TripCommand.name(of: $0) == word }) else { return nil }
            command = c
            level = c.configuration.subcommands
        }
        return command
    }

    /// `command._commandName` without its cost: argument-parser derives a name the configuration
    /// does not give from `String(describing:)` of the type, a dynamic cast that scans every
    /// protocol conformance in the binary, once per type, on every start. A one-word type name
    /// (`Add`) lower-cased is what it derives; anything else is left to it.
    static func name(of command: any ParsableCommand.Type) -> String {
        if let name = command.configuration.commandName { return name }
        let type = _typeName(command, qualified: false)
        guard type.utf8.dropFirst().allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return command._commandName }
        return type.lowercased()
    }

    static func fail(_ error: TripError) -> Never {
        ProcessExit.printError("trip: \(error.description)")
        ProcessExit.exit(error.exitCode)
    }
}
