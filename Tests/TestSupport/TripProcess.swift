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

    public static var binary: String {
        if let p = ProcessInfo.processInfo.environment["TRIP_BIN"] { return p }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On macOS the test bundle is a directory: .build/debug/X.xctest/Contents/MacOS/X
        while dir.path.contains(".xctest") { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("trip").path
    }

    public init(ledgerPath: String, today: String = "2026-03-02", extra: [String: String] = [:]) {
        self.ledgerPath = ledgerPath
        var env = ["TRIP_DB": ledgerPath, "TRIP_TODAY": today, "HOME": "/nonexistent-home",
                   "XDG_CONFIG_HOME": "/nonexistent-config", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        env.merge(extra) { $1 }
        environment = env
    }

    /// Runs `trip args…` and waits for it.
    @discardableResult
    public func run(_ args: [String], stdin: String? = nil) throws -> TripResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TripProcess.binary)
        p.arguments = args
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return TripResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                          exitCode: p.terminationStatus)
    }

    @discardableResult
    public func run(_ args: String...) throws -> TripResult { try run(args) }
}
