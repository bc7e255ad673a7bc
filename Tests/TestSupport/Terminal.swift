import Foundation

extension TripProcess {
    /// Runs `trip args…` with a pseudo-terminal as its stdin, stdout and stderr, through util-linux
    /// `script`, so `isatty` is true as in a user's terminal. Returns what the terminal received
    /// (stdout and stderr together, with the terminal's `\r\n` turned back into `\n`) and the exit code.
    public func runOnTerminal(
        _ args: [String], environment extra: [String: String] = [:],
        removing removed: [String] = []
    ) throws -> (output: String, exitCode: Int32) {
        let quoted = ([TripProcess.binary] + args).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        var env = environment.merging(extra) { $1 }
        for key in removed { env[key] = nil }
        let r = try spawnAndWait(
            "/usr/bin/script",
            ["--quiet", "--return", "--command", quoted.joined(separator: " "), "/dev/null"].map { Array($0.utf8) }, environment: env)
        let text = String(decoding: r.stdout + r.stderr, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return (text, r.exitCode ?? 128 + (r.signal ?? 0))
    }
}
