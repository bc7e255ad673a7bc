import ArgumentParser
import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripCommand {
    /// `trip demo`
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log a sample trip into a temporary ledger and report it. Offline; touches nothing else.")

        @Flag(help: "Keep the temporary ledger and print its path.") var keep = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var template = Array("/tmp/trip-demo-XXXXXX".utf8CString)
            guard let dir = mkdtemp(&template) else { throw TripError.storage("demo: cannot create a temporary folder") }
            let folder = String(cString: dir)
            let path = folder + "/ledger.sqlite"
            let context = try global.context()
            var env = context.environment
            env["TRIP_TODAY"] = env["TRIP_TODAY"] ?? "2026-03-08"
            let clock = try Clock.fromEnvironment(env)
            let report: TripReport
            do {
                let ledger = try Ledger(path: path, settings: context.settings, clock: clock)
                report = try DemoTrip.build(in: ledger)
                if global.format == .text {
                    let (trip, purchases) = try ledger.purchases(PurchaseFilter())
                    print(TextFormat.list(trip, purchases) + "\n")
                }
            }
            if !keep {
                for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
                rmdir(folder)
            }
            emit(
                global.format, json: report.json,
                text: TextFormat.demo(report, keptAt: keep ? path : nil))
        }
    }
}
