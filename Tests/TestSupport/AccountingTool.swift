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
        return try runTool(path, args, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent-home"])
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

/// Beancount 3 (PyPI `beancount`), through `python3`: loads a file as `bean-check` does and sums the
/// weights (`@@` prices applied) of the postings under `Expenses:` outside `Expenses:Unconverted`,
/// per currency, to 12 decimal places. `make test` installs it (`pip install beancount`).
public enum Beancount {
    static let script = """
        import sys
        from decimal import Decimal
        from beancount import loader
        from beancount.core import convert, data
        entries, errors, options = loader.load_file(sys.argv[1])
        for e in errors:
            print(e.source.get("lineno") if e.source else "?", e.message, file=sys.stderr)
        totals = {}
        for entry in entries:
            if isinstance(entry, data.Transaction):
                for posting in entry.postings:
                    if posting.account.startswith("Expenses:") and not posting.account.startswith("Expenses:Unconverted"):
                        weight = convert.get_weight(posting)
                        totals[weight.currency] = totals.get(weight.currency, Decimal(0)) + weight.number
        for currency, number in sorted(totals.items()):
            # `@@` becomes a per-unit price at 28 digits; 12 places keeps any real difference visible.
            print(currency, format(number.quantize(Decimal("1e-12")), "f"))
        sys.exit(1 if errors else 0)
        """

    /// The file's errors (stderr) and its expense totals per currency, as plain decimals.
    public static func expenseTotals(_ file: String) throws -> (status: Int32, totals: [String: String], stderr: String) {
        let r = try runTool("/usr/bin/env", ["python3", "-c", script, file], environment: ProcessInfo.processInfo.environment)
        var totals: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2 { totals[String(words[0])] = String(words[1]) }
        }
        return (r.status, totals, r.stderr)
    }
}

/// Runs an accounting tool (through `spawnAndWait`) and returns its status and output as text; a
/// signal shows as 128 + its number.
public func runTool(_ executable: String, _ args: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let r = try spawnAndWait(executable, args.map { Array($0.utf8) }, environment: environment)
    return (r.exitCode ?? 128 + (r.signal ?? 0), String(decoding: r.stdout, as: UTF8.self), String(decoding: r.stderr, as: UTF8.self))
}
