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
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["--quiet", "--return", "--command", quoted.joined(separator: " "), "/dev/null"]
        var env = environment.merging(extra) { $1 }
        for key in removed { env[key] = nil }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return (text, p.terminationStatus)
    }
}
