import Foundation

/// hledger 1.25 and ledger 3.3, run on a journal file. Missing tools fail the test: `make test`
/// installs them (apt: hledger ledger).
public enum AccountingTool: String, CustomStringConvertible, Sendable, CaseIterable {
    case hledger, ledger

    public var description: String { rawValue }

    public func balanceAtCost(_ file: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let path = "/usr/bin/\(rawValue)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingTool(path: path)
        }
        let args = self == AccountingTool.hledger ? ["-f", file, "bal", "expenses", "-B"] : ["-f", file, "bal", "^Expenses", "-B"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent-home"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// The grand total of a `bal` report, per commodity, as plain decimals (`1,234.56` → `1234.56`):
    /// the lines after the `----` rule (or, when a tool prints no rule, the first account's lines).
    public static func totals(_ output: String) -> [String: String] {
        let lines = output.split(separator: "\n").map(String.init)
        let tail = lines.firstIndex { $0.hasPrefix("----") }.map { Array(lines[($0 + 1)...]) } ?? lines
        var out: [String: String] = [:]
        for line in tail {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 2, words[1].count == 3, words[1].allSatisfy(\.isUppercase) else { continue }
            out[words[1]] = words[0].replacingOccurrences(of: ",", with: "")
        }
        return out
    }
}


/// A tool the tests need is not installed; `make test` installs it.
public struct MissingTool: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "\(path) is missing; `make test` installs it (apt-get install hledger ledger)" }
}
