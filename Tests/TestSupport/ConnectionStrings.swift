/// libpq connection strings that each hold one known password, in every form libpq reads one:
/// URI user info, URI query (`password`, `%70assword`, `sslpassword`, any spelling percent-encoded),
/// key-value (bare, with `\` escapes, single-quoted with `\'` and `\\`, spaces around `=`), a URI
/// as a key-value `dbname`, and malformed strings (an unclosed `[` or quote) whose parse error
/// echoes the string. Drawn from a seed, so that a failure names the seed that replays it.
public enum ConnectionStrings {
    public struct Sample: Sendable, CustomStringConvertible {
        public let conninfo: String
        public let password: String
        /// The password as the string spells it (encoded, escaped).
        public let written: String
        public let form: String
        public var description: String { "\(form): \(conninfo.debugDescription) (password \(password.debugDescription))" }
    }

    /// Characters a password is drawn from: letters and digits, and every character a form must
    /// quote, escape or encode.
    static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") + Array("'\\@:/?&=%#[] ,\"é")

    static let forms = [
        "uri-userinfo", "uri-query", "uri-query-encoded-key", "uri-sslpassword", "kv-bare", "kv-escaped", "kv-quoted",
        "kv-spaced", "kv-dbname-uri", "uri-unclosed-bracket", "kv-unclosed-quote",
    ]

    /// The sample of `seed`; `port` is the port every host names (a closed loopback port makes a
    /// connection fail at once).
    public static func sample(seed: UInt64, port: Int = 5432) -> Sample {
        var g = SplitMix64(seed: seed)
        func pick<T>(_ options: [T]) -> T { options[Int(g.next() % UInt64(options.count))] }
        // At least one letter pair first, so that the password is never a piece of the rest.
        var password = String(pick(Array("QXZJVW"))) + String(pick(Array("qxzjvw")))
        for _ in 0..<(4 + Int(g.next() % 10)) { password.append(pick(alphabet)) }
        let form = pick(forms)
        let scheme = pick(["postgresql://", "postgres://"])
        let hosts = pick(["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)", "127.0.0.1:\(port),localhost:\(port)"])
        let encoded = percentEncoded(password, everything: g.next() % 4 == 0)
        let conninfo: String
        let bare = backslashed(password, quote: false), quoted = backslashed(password, quote: true)
        let written = form.hasPrefix("kv-") && form != "kv-dbname-uri" ? (form == "kv-bare" || form == "kv-escaped" ? bare : quoted) : encoded
        switch form {
        case "uri-userinfo": conninfo = "\(scheme)ana:\(encoded)@\(hosts)/trips?sslmode=disable"
        case "uri-query": conninfo = "\(scheme)ana@\(hosts)/trips?sslmode=disable&password=\(encoded)&application_name=t"
        case "uri-query-encoded-key":
            let key = pick(["%70assword", "pass%77ord", "%70%61%73%73%77%6F%72%64", "%70%61ssword"])
            conninfo = "\(scheme)ana@\(hosts)/trips?\(key)=\(encoded)"
        case "uri-sslpassword": conninfo = "\(scheme)ana@\(hosts)/trips?sslpassword=\(encoded)&connect_timeout=2"
        case "kv-bare": conninfo = "host=127.0.0.1 port=\(port) user=ana password=\(backslashed(password, quote: false)) dbname=trips"
        case "kv-escaped": conninfo = "password=\(backslashed(password, quote: false)) host=localhost port=\(port) user=ana"
        case "kv-quoted": conninfo = "host=127.0.0.1 port=\(port) password='\(backslashed(password, quote: true))' user=ana"
        case "kv-spaced": conninfo = "host = 127.0.0.1  port=\(port)   password =  '\(backslashed(password, quote: true))'   user= ana"
        case "kv-dbname-uri": conninfo = "dbname=\(scheme)ana:\(encoded)@127.0.0.1:\(port)/trips connect_timeout=2"
        case "uri-unclosed-bracket": conninfo = "\(scheme)ana:\(encoded)@[127.0.0.1:\(port)/trips"
        default: conninfo = "host=127.0.0.1 port=\(port) user=ana password='\(backslashed(password, quote: true))"
        }
        return Sample(conninfo: conninfo, password: password, written: written, form: form)
    }

    /// `%XX` for every byte outside RFC 3986's unreserved set (all of them with `everything`).
    static func percentEncoded(_ text: String, everything: Bool) -> String {
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
        return text.utf8.map { byte in
            !everything && unreserved.contains(byte) ? String(UnicodeScalar(byte)) : "%" + hex(byte)
        }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// A key-value value as libpq reads it back: `\` before `\` and `'` (and, unquoted, before a
    /// space, which would end the value).
    static func backslashed(_ text: String, quote: Bool) -> String {
        var out = ""
        for c in text {
            if c == "\\" || c == "'" || (!quote && c == " ") { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
