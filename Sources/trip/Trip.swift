import ArgumentParser
import TripCore
import TripLedger

/// `trip`: an offline-first travel expense tracker. This target only parses arguments, opens the
/// ledger, calls one TripLedger operation and renders its result.
@main
struct Trip: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "trip",
        abstract: "Log travel purchases in any currency; get exact totals in your home currency.",
        discussion: """
            Exit codes: 0 success, 64 usage, 65 bad data, 69 unavailable (network), 70 internal.
            Environment: TRIP_DB (ledger), TRIP_CONFIG (config file), TRIP_TODAY (pins today), NO_COLOR.
            """,
        version: version,
        subcommands: [Init.self, New.self, Trips.self, Use.self, Show.self, Rename.self, Close.self, Reopen.self, Delete.self,
                      Add.self, Refund.self, List.self, Edit.self, Remove.self, Convert.self, Rates.self, Report.self,
                      Config.self, Demo.self, Export.self, Import.self]
    )

    /// Runs a command and turns every failure into one line on stderr and a sysexits code.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let early = NegativeValueCheck.reject(arguments) { fail(early) }
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
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                ProcessExit.exit(0)
            }
            // One line: argument-parser lists choices on lines of their own ("- text").
            let message = message(for: error).split(separator: "\n").map { $0.trimmingSpaces }
                .filter { !$0.isEmpty }.joined(separator: " ")
            ProcessExit.printError("trip: \(message)")
            ProcessExit.exit(code.rawValue == 1 ? 70 : code.rawValue)
        }
    }

    /// Parses only the named leaf subcommand's arguments when that is unambiguous: building the whole
    /// command tree costs about 2 ms of every start. Help requests and command groups (`rates`) go
    /// through the root parser, so usage and help texts are unchanged.
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        let wantsHelp = arguments.contains { $0 == "--help" || $0 == "-h" || $0 == "help" || $0 == "--experimental-dump-help" }
        if let name = arguments.first, !wantsHelp,
           let leaf = configuration.subcommands.first(where: { $0._commandName == name }),
           leaf.configuration.subcommands.isEmpty {
            return try leaf.parse(Array(arguments.dropFirst()))
        }
        return try parseAsRoot(arguments)
    }

    static func fail(_ error: TripError) -> Never {
        ProcessExit.printError("trip: \(error.description)")
        ProcessExit.exit(error.exitCode)
    }
}
