import TripCore

/// Argument-parser's usage errors, rewritten in the shape of every other error of `trip`:
/// the field first, then the value quoted, then what is wrong with it
/// (`--by: "week" is not one of category, day, …`, like `TripError.badChoice`).
///
/// Argument-parser's error types are internal to it, so its English messages are what there is to
/// read; a message that matches none of the shapes below is passed on unchanged.
enum ParserMessage {
    static func restyle(_ message: String) -> String {
        if let m = message.wholeMatch(of: #/The value '(?<value>.*)' is invalid for '(?<name>[^' ]+)[^']*'(?<rest>.*)/#) {
            return "\(field(m.name)): \(quoted(String(m.value))) \(reason(String(m.rest)))"
        }
        if let m = message.wholeMatch(of: #/Unexpected argument '(?<value>.*)'/#) {
            return "argument: \(quoted(String(m.value))) is one too many for this command"
        }
        if let m = message.wholeMatch(of: #/\d+ unexpected arguments: (?<values>.*)/#) {
            let values = m.values.split(separator: ", ").map { quoted(String($0.dropFirst().dropLast())) }
            return "arguments: \(values.joined(separator: ", ")) are more than this command takes"
        }
        if let m = message.wholeMatch(of: #/Unknown option '(?<name>[^']*)'(\. Did you mean '(?<near>[^']*)'\?)?/#) {
            return "option: \(quoted(String(m.name))) is not an option of this command" + (m.near.map { "; did you mean \($0)?" } ?? "")
        }
        if let m = message.wholeMatch(of: #/Missing value for '(?<name>[^' ]+)[^']*'/#) {
            return "\(field(m.name)): a value is needed"
        }
        if let m = message.wholeMatch(of: #/Missing expected argument '(?<name>[^']*)'/#) {
            return "\(field(m.name)): a value is needed"
        }
        if let m = message.wholeMatch(of: #/The option '(?<name>[^']*)' does not take any value, but '(?<value>.*)' was specified\./#) {
            return "\(field(m.name)): \(quoted(String(m.value))) is not accepted; the option takes no value"
        }
        return message
    }

    /// `--by` stays as typed; a positional `<amount>` is named `amount`.
    private static func field(_ name: Substring) -> String {
        String(name.hasPrefix("<") && name.hasSuffix(">") ? name.dropFirst().dropLast() : name)
    }

    /// What follows the parser's "is invalid for 'X'": its list of choices (written as a sentence or
    /// as a list already joined onto one line), or its own reason.
    private static func reason(_ rest: String) -> String {
        if let m = rest.wholeMatch(of: #/\. Please provide one of the following: (?<list>.*)/#) {
            let choices = m.list.split(separator: "- ").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            return "is not one of \(choices.joined(separator: ", "))"
        }
        if let m = rest.wholeMatch(of: #/\. Please provide one of (?<list>.*)\./#) {
            let choices = m.list.replacing(" or ", with: ", ").split(separator: ", ").map { $0.trimmingCharacters(in: "'") }
            return "is not one of \(choices.joined(separator: ", "))"
        }
        if let m = rest.wholeMatch(of: #/: (?<why>.+)/#) { return String(m.why) }
        return "is not a valid value"
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
