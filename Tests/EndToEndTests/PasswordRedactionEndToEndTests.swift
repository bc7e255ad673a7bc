import Foundation
import TestSupport
import Testing

/// No password in any output (issue 36): `trip config`, `trip sync` and `trip remote status` with
/// a `TRIP_REMOTE` holding a known password, in every form libpq reads one (`ConnectionStrings`),
/// never print it, on stdout or stderr, whether libpq accepts the string or refuses it.
@Suite("End to end: no password in any output")
struct PasswordRedactionEndToEndTests {
    static func ledger() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"]] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    static func run(_ trip: TripProcess, remote: String, _ args: [String]) throws -> TripResult {
        var t = trip
        t.environment["TRIP_REMOTE"] = remote
        return try t.run(args)
    }

    /// The strings of the issue, each with S3cret in it.
    static let reported = [
        "postgresql://ana:S3cret@[127.0.0.1:5432/trips", "host=127.0.0.1 port=1 password='S3cret pass' user=ana",
        "postgresql://ana@127.0.0.1:1/trips?%70assword=S3cret", "postgresql://ana@127.0.0.1:1/trips?password=S3cret",
    ]

    @Test("The reported strings: trip config, trip sync and trip remote status never print S3cret")
    func reportedStrings() throws {
        let (folder, trip) = try Self.ledger()
        defer { withExtendedLifetime(folder) {} }
        for remote in Self.reported {
            for args in [["config"], ["sync"], ["remote", "status"]] {
                let r = try Self.run(trip, remote: remote, args)
                #expect(!(r.stdout + r.stderr).contains("S3cret"), "\(args) with \(remote): \(r.stdout) \(r.stderr)")
            }
        }
        let config = try Self.run(trip, remote: Self.reported[1], ["config"])
        #expect(config.stdout.contains("password='***' user=ana"), "\(config.stdout)")
    }

    /// Generated strings (seeded; a failure names the seed, `ConnectionStrings.sample(seed:)`),
    /// every host on the closed port 1 of this machine, so `remote status` fails at once.
    @Test("Generated strings in every form: no output holds the password", arguments: Array(UInt64(1)...40))
    func generatedStrings(seed: UInt64) throws {
        let (folder, trip) = try Self.ledger()
        defer { withExtendedLifetime(folder) {} }
        let sample = ConnectionStrings.sample(seed: seed, port: 1)
        for args in [["config"], ["sync"], ["remote", "status"]] {
            let r = try Self.run(trip, remote: sample.conninfo, args)
            let output = r.stdout + r.stderr
            #expect(
                !output.contains(sample.password) && !output.contains(sample.written),
                "seed \(seed), \(args), \(sample): \(output)")
        }
    }
}
