import Foundation
import TestSupport
import Testing

/// Issue 10, group 5: shell completion, the man page and `make install`.
@Suite("End to end: completion scripts, man page, make install")
struct CompletionAndInstallTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func ledgerWithTrips(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan 2026", "--currency", "JPY").exitCode == 0)
        try #require(trip.run("new", "Korea", "--currency", "KRW").exitCode == 0)
        return trip
    }

    func run(_ executable: String, _ args: [String], _ env: [String: String]) throws -> (Int32?, String) {
        let r = try spawnAndWait(executable, args.map { Array($0.utf8) }, environment: env, stdin: nil)
        return (r.exitCode, String(decoding: r.stdout, as: UTF8.self) + String(decoding: r.stderr, as: UTF8.self))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func generatedScriptsHoldTheFixedCandidatesAndAskTripForTheRest(shell: String) throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let r = try trip.run("--generate-completion-script", shell)
        #expect(r.exitCode == 0)
        let script = r.stdout
        for word in ["JPY", "KRW", "EUR", "half-up", "half-even", "floor", "ceiling", "---completion"] {
            #expect(script.contains(word), "\(shell) script lacks \(word)")
        }
        // Trip names, presets and formats come from `trip` at completion time.
        #expect(script.contains("use -- positional@0"))
        #expect(script.contains("add -- --preset"))
        #expect(script.contains("report -- --format"))
    }

    @Test func customCompletionReadsTripNamesFromTheLedger() throws {
        let folder = TemporaryFolder()
        let trip = try ledgerWithTrips(folder)
        let names = try trip.run("---completion", "use", "--", "positional@0", "2", "0", "trip", "use", "")
        #expect(names.stdout.split(separator: "\n") == ["Japan 2026", "Korea"])
        // A --db on the line wins over TRIP_DB; a missing ledger is not created.
        let elsewhere = TripProcess(ledgerPath: folder.file("absent.sqlite"))
        let none = try elsewhere.run("---completion", "use", "--", "positional@0", "2", "0", "trip", "use", "")
        #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("absent.sqlite")))
        let viaFlag = try elsewhere.run(
            "---completion", "list", "--", "--trip", "4", "0",
            "trip", "list", "--db", trip.ledgerPath, "--trip", "")
        #expect(viaFlag.stdout.split(separator: "\n") == ["Japan 2026", "Korea"])
    }

    /// Completing while another `trip` writes the ledger (issue 34: an empty completion seen in
    /// the test above): the names are read from the last commit, not refused as "database is
    /// locked", which the completion would swallow and print nothing.
    @Test func tripNamesCompleteWhileAnotherProcessWritesTheLedger() throws {
        let folder = TemporaryFolder()
        let trip = try ledgerWithTrips(folder)
        let names = try LedgerInspection.whileWriting(trip.ledgerPath) {
            try trip.run("---completion", "use", "--", "positional@0", "2", "0", "trip", "use", "")
        }
        #expect(names.stdout.split(separator: "\n") == ["Japan 2026", "Korea"], "exit \(names.exitCode): \(names.stderr)")
    }

    @Test func formatCompletionOffersOnlyWhatTheCommandAccepts() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        func formats(_ command: String) throws -> [Substring] {
            try trip.run("---completion", command, "--", "--format", "3", "0", "trip", command, "--format", "").stdout
                .split(separator: "\n")
        }
        #expect(try formats("list") == ["text", "json"])
        #expect(try formats("report") == ["text", "json", "csv", "markdown", "html"])
        #expect(try formats("export").contains("beancount"))
        let presets = try trip.run("---completion", "add", "--", "--preset", "4", "0", "trip", "add", "12", "--preset", "")
        #expect(presets.stdout.split(separator: "\n").contains("JP"))
    }

    /// Drives the generated bash script the way bash does on TAB.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func bashCompletesTripNamesThroughTheScript() throws {
        let folder = TemporaryFolder()
        let trip = try ledgerWithTrips(folder)
        let script = folder.file("trip.bash")
        try trip.run("--generate-completion-script", "bash").stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // The script runs `trip ---completion …` as `${COMP_WORDS[0]}`: a function of that name
        // runs the real one and writes down, for a failure's message, what it printed, its
        // stderr and how it ended (137: killed by SIGKILL).
        let driver = """
            trip() {
              printf 'trip %s\\n' "$*" >>"$TRACE"
              command trip "$@" 2>>"$TRACE" | tee -a "$TRACE"
              local rc=${PIPESTATUS[0]}
              printf '[exit %d]\\n' "$rc" >>"$TRACE"
              return "$rc"
            }
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            _trip trip "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // bash finds `trip` by PATH: a folder of the test's own holds a `trip` that is the binary
        // under test whatever its file is called (`TRIP_BIN` may name `trip-2aa52e7`; its folder's
        // `trip`, if any, is another binary).
        let bin = folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: bin + "/trip", withDestinationPath: TripProcess.binary)
        var env = trip.environment
        env["PATH"] = bin + ":/usr/bin:/bin"
        // Each part on its own: a failure says whether bash, the completion or the output was at fault.
        for (line, expected) in [(["trip", "use", "K"], "Korea\n"), (["trip", "list", "--format", ""], "text\njson\n")] {
            let trace = folder.file("trace-\(line[1])")
            env["TRACE"] = trace
            let r = try spawnAndWait("/bin/bash", (["-c", driver, "complete", script] + line).map { Array($0.utf8) }, environment: env)
            let out = String(decoding: r.stdout, as: UTF8.self), err = String(decoding: r.stderr, as: UTF8.self)
            let traced = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "(no trace: bash never ran trip)"
            let asked = try trip.run(
                ["---completion", line[1], "--", line.count == 3 ? "positional@0" : "--format", String(line.count - 1), "0"] + line)
            let context =
                "\(line): exit \(r.exitCode.map(String.init) ?? "by signal \(r.signal ?? 0)"), stderr [\(err)]; "
                + "inside bash: [\(traced)]; trip ---completion again afterwards: exit \(asked.exitCode), [\(asked.stdout)] [\(asked.stderr)]"
            #expect(r.exitCode == 0 && err.isEmpty, "\(context)")
            #expect(out == expected, "\(context)")
        }
    }

    /// The test above under a `TRIP_BIN` that is not called `trip` (a kept old release, a copy):
    /// it still completes through the binary under test. Before, bash looked for `trip` beside
    /// it, found none, and completed nothing: a failure of that test alone, by the environment.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash") && Self.suiteBinary != nil))
    func bashCompletionRunsTheBinaryUnderTestWhateverItsName() throws {
        let folder = TemporaryFolder()
        let copy = folder.file("trip-under-test")
        try FileManager.default.copyItem(atPath: TripProcess.binary, toPath: copy)
        var env = ProcessInfo.processInfo.environment
        env["TRIP_BIN"] = copy
        let r = try spawnAndWait(
            Self.suiteBinary!, ["--testing-library", "swift-testing", "--filter", "bashCompletesTripNamesThroughTheScript"].map { Array($0.utf8) },
            environment: env)
        let out = String(decoding: r.stdout + r.stderr, as: UTF8.self)
        #expect(r.exitCode == 0, "\(out)")
        #expect(out.contains("bashCompletesTripNamesThroughTheScript() passed"), "\(out)")
    }

    /// This test bundle, to run one of its tests again (on Linux, where the bundle is the executable).
    static let suiteBinary: String? = TripProcess.testExecutable.hasSuffix(".xctest") ? TripProcess.testExecutable : nil

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
    func makeInstallPutsBinaryManPageAndCompletionsUnderPrefix() throws {
        let folder = TemporaryFolder()
        let prefix = folder.file("prefix")
        let (code, out) = try run(
            "/usr/bin/make",
            [
                "-C", Self.packageRoot, "--no-print-directory", "install-files",
                "PREFIX=\(prefix)", "TRIP_BIN=\(TripProcess.binary)",
            ],
            ["PATH": "/usr/bin:/bin"])
        #expect(code == 0, "\(out)")
        let fm = FileManager.default
        for file in [
            "bin/trip", "share/man/man1/trip.1", "share/bash-completion/completions/trip",
            "share/zsh/site-functions/_trip", "share/fish/vendor_completions.d/trip.fish",
        ] {
            #expect(fm.fileExists(atPath: prefix + "/" + file), "missing \(file)")
        }
        #expect(fm.isExecutableFile(atPath: prefix + "/bin/trip"))
        let man = try String(contentsOfFile: prefix + "/share/man/man1/trip.1", encoding: .utf8)
        #expect(man.contains(".Dt TRIP 1"))
        #expect(man.contains("Log a purchase."))
        let (_, version) = try run(prefix + "/bin/trip", ["--version"], [:])
        #expect(version.hasPrefix("0."))
    }
}
