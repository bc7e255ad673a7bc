/// `--date -2` (two days ago) wherever a date option is read, as `trip add --date -2`: the argument
/// parser takes `-2` for an option and reports a missing value, unless each option opts out with
/// `parsing: .unconditional`. Joining the two arguments (`--date=-2`) here, before any command
/// parses them, makes a leading minus work for every command's date options, present and future
/// (`refund`, `transfer`), so the same value never gets two answers.
enum DateOffsetArguments {
    /// Options whose value is a date (README, "Dates").
    static let dateOptions: Set<String> = ["--date", "--since", "--until", "--start", "--end"]

    static func join(_ args: [String]) -> [String] {
        // `trip add` reads its own command line (`AddFastPath`), which takes `--date -2` already.
        guard args.first != "add" else { return args }
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                out += args[i...]
                break
            }
            if dateOptions.contains(a), i + 1 < args.count, isDayOffset(args[i + 1]) {
                out.append("\(a)=\(args[i + 1])")
                i += 2
            } else {
                out.append(a)
                i += 1
            }
        }
        return out
    }

    /// `-2`, `-30`: days before today.
    static func isDayOffset(_ a: String) -> Bool {
        a.count > 1 && a.hasPrefix("-") && a.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
