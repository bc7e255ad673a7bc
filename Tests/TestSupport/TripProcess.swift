import Foundation

/// The result of running the `trip` binary.
public struct TripResult: Sendable {
    public let stdout: String
    public let stderr: String
    public let exitCode: Int32

    /// stdout parsed as a JSON object.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }
}

/// Runs the built `trip` as a subprocess, the way a user or a script would.
///
/// The binary is the one SwiftPM built beside this test bundle (`TRIP_BIN` overrides). Each runner
/// has its own ledger file and pins `TRIP_TODAY`; no user config is read unless given.
public struct TripProcess: Sendable {
    public let ledgerPath: String
    public var environment: [String: String]
    /// The `trip` this runner starts: `binary`, or another release's (`OldRelease`).
    public var executable = TripProcess.binary

    public static var binary: String {
        if let p = ProcessInfo.processInfo.environment["TRIP_BIN"] { return p }
        var dir = URL(fileURLWithPath: testExecutable).deletingLastPathComponent()
        // On macOS the test bundle is a directory: .build/debug/X.xctest/Contents/MacOS/X
        while dir.path.contains(".xctest") { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("trip").path
    }

    /// The running test process's executable (on Linux, the `.xctest` bundle itself).
    public static var testExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    public init(ledgerPath: String, today: String = "2026-03-02", extra: [String: String] = [:]) {
        self.ledgerPath = ledgerPath
        var env = [
            "TRIP_DB": ledgerPath, "TRIP_TODAY": today, "HOME": "/nonexistent-home",
            "XDG_CONFIG_HOME": "/nonexistent-config", "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
        ]
        env.merge(extra) { $1 }
        environment = env
    }

    /// Runs `trip args…` and waits for it (see `spawnAndWait`). A signal shows as exit code
    /// 128 + the signal's number, as a shell reports it.
    @discardableResult
    public func run(_ args: [String], stdin: String? = nil) throws -> TripResult {
        let r = try spawnAndWait(
            executable, args.map { Array($0.utf8) }, environment: environment,
            stdin: stdin.map { Array($0.utf8) })
        return TripResult(
            stdout: String(decoding: r.stdout, as: UTF8.self), stderr: String(decoding: r.stderr, as: UTF8.self),
            exitCode: r.exitCode ?? 128 + (r.signal ?? 0))
    }

    @discardableResult
    public func run(_ args: String...) throws -> TripResult { try run(args) }
}
