import ArgumentParser
import Testing

@testable import trip

/// `trip add`'s own reading of its command line (`AddFastPath`) against argument-parser's: for
/// every option, both give the same `Add`, down to each property's parsed state, and every line
/// it does not read exactly so is left to argument-parser.
@Suite("trip add: the fast reading of its command line equals argument-parser's")
struct AddFastPathTests {
    /// Every property of `add`, as parsed (`dump` shows an unset property as its definition).
    func state(_ add: TripCommand.Add) -> String {
        var out = ""
        dump(add, to: &out)
        return out
    }

    func expectSame(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try #require(AddFastPath.parse(arguments[...]), "not read: \(arguments)", sourceLocation: sourceLocation)
        let parsed = try TripCommand.Add.parse(arguments)
        #expect(state(fast) == state(parsed), "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test func everyOptionReadsAsArgumentParserReadsIt() throws {
        try expectSame(["1200"])
        try expectSame(["1200", "JPY", "ramen", "at", "Ichiran"])
        try expectSame(["1200", "-", "300", "coffee"])
        for name in AddFastPath.optionNames {
            // `--format` takes only the formats `add` offers; any other value is argument-parser's.
            if name == "format" {
                try expectSame(["12.50", "--format", "json"])
                try expectSame(["12.50", "--format=text", "SGD"])
                continue
            }
            try expectSame(["12.50", "SGD", "taxi", "--\(name)", "v 1"])
            try expectSame(["12.50", "--\(name)=x=y", "SGD"])
            try expectSame(["12.50", "--\(name)", ""])
        }
        for short in AddFastPath.shortNames.keys {
            try expectSame(["1200", short, short == "-O" ? "json" : "v", "JPY"])
        }
        for flag in AddFastPath.flagNames {
            try expectSame(["5", "--\(flag)", "EUR"])
        }
        try expectSame(["5", "--refund", "--no-tax-included"])
        try expectSame(["3*1200+500", "--tip", "10%", "JPY", "--trip", "Japan 2026", "--format", "json", "ramen", "--preset", "JP"])
        try expectSame(["--trip", "Japan", "1200", "--db", "/tmp/x.sqlite", "--config", "c.toml", "--format", "text"])
    }

    /// The options it reads are exactly those `trip add --help` lists, besides `--help` itself.
    @Test func itKnowsEveryOptionOfAdd() throws {
        let help = TripCommand.Add.helpMessage(columns: 400)
        var listed: Set<String> = []
        for word in help.split(whereSeparator: { !($0.isLetter || $0 == "-") }) where word.hasPrefix("--") {
            listed.insert(String(word.dropFirst(2)))
        }
        listed.remove("help")
        #expect(listed == Set(AddFastPath.optionNames).union(AddFastPath.flagNames))
        // Short names as the help pairs them: `-t, --trip <trip>`.
        var shorts: [String: String] = [:]
        for line in help.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count > 1, words[0].count == 3, words[0].hasPrefix("-"), words[0].hasSuffix(","), words[1].hasPrefix("--") {
                shorts[String(words[0].dropLast())] = String(words[1].dropFirst(2))
            }
        }
        shorts["-h"] = nil
        #expect(shorts == AddFastPath.shortNames)
    }

    /// What it does not read exactly as argument-parser would, argument-parser reads.
    @Test func itLeavesEverythingElseToArgumentParser() {
        let declined: [[String]] = [
            [], ["--trip", "Japan"], ["1200", "-tJapan"], ["1200", "-x", "y"], ["1200", "--tip", "-5"], ["1200", "--tip=-5"],
            ["1200", "--note", "a", "--note", "b"], ["1200", "--", "x"], ["1200", "--help"], ["1200", "-h"],
            ["1200", "--unknown", "x"], ["1200", "--tip"], ["1200", "--tax-included", "--no-tax-included"],
            ["1200", "--refund=yes"], ["1200", "--refund", "--refund"], ["1200", "--format", "csv"],
            ["1200", "--date", "-3"], ["1200", "--note="], ["-5"], ["1200", "--version"], ["1200", "--experimental-dump-help"],
        ]
        for arguments in declined {
            #expect(AddFastPath.parse(arguments[...]) == nil, "\(arguments)")
        }
    }
}
