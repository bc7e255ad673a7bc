import Testing

@testable import TripCore

@Suite("Config files, settings and presets")
struct ConfigTests {
    @Test func parsesCommentsSectionsAndStrings() throws {
        let f = try ConfigFile(
            origin: "t.toml",
            text: """
                # a comment
                home_currency = "EUR"   # trailing comment
                [preset.X]
                description = "has a # inside"
                tax = "5%"
                """)
        #expect(f.entries.map(\.key) == ["home_currency", "description", "tax"])
        #expect(f.entries[1].value == "has a # inside")
        #expect(f.entries[1].section == "preset.X")
        #expect(f.entries[2].line == 5)
    }

    @Test func badLinesNameFileAndLine() {
        #expect(throws: TripError.badConfig(file: "t.toml", line: 2, message: "expected key = value, found \"oops\"")) {
            try ConfigFile(origin: "t.toml", text: "a = 1\noops\n")
        }
    }

    @Test func userFileOverridesWithProvenance() throws {
        let s = try Settings.load(configPath: "/u/config.toml", environment: [:]) { path in
            path == "/u/config.toml" ? "rounding = \"half-even\"\n[fallback]\nTWD = \"35\"\n" : nil
        }
        #expect(s.rounding.value == .halfEven)
        #expect(s.rounding.source == "/u/config.toml:1")
        #expect(s.homeCurrency.source.hasPrefix("config/settings.toml"))
        #expect(s.fallback.perEUR["TWD"] == Rational(integer: 35))
        #expect(s.userFile == "/u/config.toml")
    }

    @Test func configSearchOrder() throws {
        var seen: [String] = []
        _ = try Settings.load(configPath: nil, environment: ["XDG_CONFIG_HOME": "/x"]) {
            seen.append($0); return nil
        }
        #expect(seen == ["/x/trip/config.toml"])
        seen = []
        _ = try Settings.load(configPath: nil, environment: ["TRIP_CONFIG": "/t.toml"]) {
            seen.append($0); return ""
        }
        #expect(seen == ["/t.toml"])
        #expect(throws: TripError.configNotFound(path: "/missing.toml")) {
            try Settings.load(configPath: "/missing.toml", environment: [:]) { _ in nil }
        }
    }

    @Test func unknownKeysAreErrors() {
        #expect(throws: TripError.self) {
            try Settings.load(configPath: "/c", environment: [:]) { _ in "home_curency = \"EUR\"\n" }
        }
    }

    @Test(
        "required presets",
        arguments: [
            ("JP", nil as String?, "10%", true, RoundingMode.floor as RoundingMode?),
            ("SG", "10%", "9%", false, nil),
            ("US-NY", nil, "8.875%", false, nil),
            ("GB", nil, "20%", true, nil),
            ("DE", nil, "19%", true, nil),
        ])
    func presets(name: String, service: String?, tax: String, included: Bool, rounding: RoundingMode?) throws {
        let p = try Settings.defaults().preset(named: name.lowercased())
        #expect(p.service?.description == service)
        #expect(p.tax?.description == tax)
        #expect(p.taxIncluded == included)
        #expect(p.rounding == rounding)
        #expect(!p.source.isEmpty, "every preset notes its source")
    }
}

@Suite("Fallback table")
struct FallbackTableTests {
    @Test("covers TWD, USD, JPY, KRW, GBP, EUR crossed with each other")
    func coverage() throws {
        let table = try Settings.defaults().fallback
        let codes = ["TWD", "USD", "JPY", "KRW", "GBP", "EUR"]
        for a in codes {
            for b in codes where a != b {
                let r = try #require(table.rate(from: a, to: b), "\(a)→\(b)")
                #expect(r.provisional)
                #expect(Rational(decimalText: r.rate).map { $0 > .zero } == true)
            }
        }
    }

    @Test func irrevocableEuroRatesAreExactAndFinal() throws {
        let table = try Settings.defaults().fallback
        #expect(table.rate(from: "EUR", to: "HRK")! == ("7.5345", false))
        #expect(table.rate(from: "EUR", to: "BGN")! == ("1.95583", false))
        #expect(table.rate(from: "DEM", to: "EUR")!.provisional == false)
        #expect(table.rate(from: "BGN", to: "USD")!.provisional == true)
    }
}
