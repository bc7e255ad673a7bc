import Foundation
import TestSupport
import Testing
import TripCore

/// No password in any output (issue 36): one redaction of libpq connection strings, both forms.
@Suite("Connection string redaction")
struct ConnectionRedactionTests {
    @Test(arguments: [
        ("postgresql://ana:S3cret@[127.0.0.1:5432/trips", "postgresql://ana:***@[127.0.0.1:5432/trips"),
        ("postgresql://ana:S3cret@127.0.0.1:5432/trips", "postgresql://ana:***@127.0.0.1:5432/trips"),
        ("postgres://ana@h/db?%70assword=S3cret&sslmode=disable", "postgres://ana@h/db?%70assword=***&sslmode=disable"),
        ("postgresql://h/db?sslpassword=S3cret", "postgresql://h/db?sslpassword=***"),
        ("postgresql://ana:p@ss@h/db", "postgresql://ana:***@h/db"),
        ("host=h password='S3cret pass' user=ana", "host=h password='***' user=ana"),
        ("host=h password = 'it\\'s \\\\ x'  user=ana", "host=h password = '***'  user=ana"),
        ("host=h password=S3cret\\ pass user=ana", "host=h password=*** user=ana"),
        ("host=h password='S3cret pass", "host=h password='***"),
        ("dbname=postgresql://ana:S3cret@h/db port=5", "dbname=postgresql://ana:***@h/db port=5"),
        ("host=h user=ana", "host=h user=ana"),
        ("postgresql://ana@h:5432/trips", "postgresql://ana@h:5432/trips"),
        ("", ""),
    ])
    func redactsEachForm(_ conninfo: String, _ expected: String) {
        #expect(ConnectionRedaction.redact(conninfo) == expected)
    }

    /// libpq's message for an unclosed `[` quotes the whole string.
    @Test func scrubsAnErrorThatQuotesTheString() {
        let conninfo = "postgresql://ana:S3cret@[127.0.0.1:5432/trips"
        let message = "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"\(conninfo)\""
        let scrubbed = ConnectionRedaction.scrub(message, conninfo: conninfo)
        #expect(!scrubbed.contains("S3cret"))
        #expect(scrubbed.contains("postgresql://ana:***@[127.0.0.1:5432/trips"))
        #expect(ConnectionRedaction.scrub("bad password \"ab\"", conninfo: "password=ab") == ConnectionRedaction.withheld)
    }

    /// The property: for connection strings drawn from seeds, holding a known password in every
    /// form, neither the redacted string nor a message quoting the string or the password holds
    /// the password (as read or as written). `TRIP_REDACTION_SEED` replays one seed.
    @Test func noGeneratedPasswordSurvives() {
        let seeds: [UInt64] =
            ProcessInfo.processInfo.environment["TRIP_REDACTION_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(1...3000)
        var forms: Set<String> = []
        for seed in seeds {
            let sample = ConnectionStrings.sample(seed: seed)
            forms.insert(sample.form)
            let outputs = [
                ConnectionRedaction.redact(sample.conninfo),
                ConnectionRedaction.scrub("invalid connection string \"\(sample.conninfo)\"", conninfo: sample.conninfo),
                ConnectionRedaction.scrub("password \"\(sample.password)\" is wrong", conninfo: sample.conninfo),
                ConnectionRedaction.scrub("near \(sample.written) here", conninfo: sample.conninfo),
            ]
            for output in outputs where output.contains(sample.password) || output.contains(sample.written) {
                Issue.record("seed \(seed) (TRIP_REDACTION_SEED=\(seed)): \(sample) → \(output.debugDescription)")
                return
            }
            let redacted = ConnectionRedaction.redact(sample.conninfo)
            #expect(redacted.contains("ana") && redacted.contains("***"), "seed \(seed): \(sample) → \(redacted)")
        }
        if seeds.count > 1 { #expect(forms.count == 11, "forms drawn: \(forms.sorted())") }
    }
}
