// Provider bodies with one rate replaced by hostile text, shared by the service, sync and
// end-to-end tests.

/// The three provider formats, each with a single `USD` (or `EUR`) rate whose text is chosen by
/// the test: valid otherwise, so that the rate alone decides acceptance.
public enum HostileBodies {
    /// Rate texts no provider may get into a ledger: zero, negative, overflowing, not a number,
    /// underflowing, absurdly long, and finite but outside the sane range.
    ///
    /// Written as they would appear as a JSON number; `quoted` puts `NaN` inside a string too.
    public static let rates: [String] = [
        "0", "0.0", "-1.5", "1e308", "NaN", #""NaN""#, "Infinity", "-Infinity", "1e-400",
        String(repeating: "9", count: 400), "1" + String(repeating: "0", count: 12), "0.00000000000001",
    ]

    /// The day every body is published on.
    public static let date = "2017-03-10"
    /// `date` 00:00 UTC as Unix seconds.
    public static let unixSeconds = 1_489_104_000

    /// Frankfurter `/latest` (base EUR).
    public static func frankfurterLatest(usd rate: String) -> String {
        #"{"amount":1.0,"base":"EUR","date":"\#(date)","rates":{"JPY":121.6,"USD":\#(rate)}}"#
    }

    /// Frankfurter `/FROM..TO` time series (base EUR), one day: `from`.
    public static func frankfurterSeries(from: String, to: String, usd rate: String) -> String {
        #"{"amount":1.0,"base":"EUR","start_date":"\#(from)","end_date":"\#(to)","rates":{"\#(from)":{"JPY":121.6,"USD":\#(rate)}}}"#
    }

    /// open.er-api `/latest/USD`: `EUR` carries `rate`.
    public static func openERAPILatest(eur rate: String) -> String {
        #"{"result":"success","base_code":"USD","time_last_update_unix":\#(unixSeconds),"rates":{"USD":1,"JPY":114.8,"EUR":\#(rate)}}"#
    }

    /// ECB eurofxref XML, one day: `USD` carries `rate` (JSON quotes dropped: XML has only text).
    public static func ecb(usd rate: String) -> String {
        let text = rate.filter { $0 != "\"" }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube><Cube time="\(date)"><Cube currency="USD" rate="\(text)"/><Cube currency="JPY" rate="121.6"/></Cube></Cube>
            </gesmes:Envelope>
            """
    }
}

/// A hostile server behaviour and what the one-line refusal must mention (any of `expected`).
/// Served on every target (`"*"`), so whichever request a sync makes meets it.
public struct HostileCase: Sendable, CustomStringConvertible {
    public var name: String
    public var route: FXTestServer.Route
    public var expected: [String]

    public var description: String { name }

    /// Every transport-level case; with a sync whose total timeout is a few seconds, each ends
    /// within it.
    public static let network: [HostileCase] = [
        HostileCase(name: "slow loris body, 1 byte/s", route: .slowLoris(), expected: ["stalled", "timed out"]),
        HostileCase(name: "slow loris head, 1 byte/s", route: .slowLoris(trickleHead: true), expected: ["stalled", "timed out"]),
        HostileCase(name: "endless body", route: .endless(), expected: ["exceeds the 10 MiB limit"]),
        HostileCase(
            name: "Content-Length 1 TiB", route: .truncated(status: 200, headers: [:], declaredLength: 1 << 40, body: [0x7B]),
            expected: ["exceeds the 10 MiB limit"]),
        HostileCase(name: "gzip bomb to 64 MiB", route: .gzipBomb(), expected: ["exceeds the 10 MiB limit"]),
        HostileCase(
            name: "Content-Length longer than body, then close",
            route: .truncated(
                status: 200, headers: ["Content-Type": "application/json"], declaredLength: 4096,
                body: Array(#"{"rates":{"USD":1.1}}"#.utf8)),
            expected: ["truncated"]),
        HostileCase(
            name: "Content-Length shorter than body",
            route: .truncated(
                status: 200, headers: ["Content-Type": "application/json"], declaredLength: 20,
                body: Array(HostileBodies.frankfurterLatest(usd: "1.0565").utf8)),
            expected: ["invalid JSON", "expected XML"]),
        HostileCase(name: "redirect loop", route: .redirect(to: "/loop"), expected: ["more than 3 redirects"]),
        HostileCase(
            name: "redirect to plain http", route: .redirect(to: "http://rates.example.net/latest"),
            expected: ["only https (or loopback http) is allowed"]),
        HostileCase(
            name: "JSON 100 levels deep", route: .deepJSON(depth: 100), expected: ["nesting deeper than 64", "expected XML"]),
        HostileCase(
            name: "JSON 100k levels deep", route: .deepJSON(depth: 100_000, closed: false),
            expected: ["nesting deeper than 64", "expected XML"]),
    ]
}
