import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A model-based test of shared trips: five devices of one trip (one of them a second device of the
/// same person, one that joins late and is later revoked) do random things a traveller can do, in
/// a random order, with syncs (some killed halfway) and server restarts among them. Once
/// every device synced twice, every device shows the same trip, the balances add up to zero, and no
/// purchase was lost or doubled. Seeded: a failure names its seed, and `TRIP_SEED=N` replays it
/// (the same commands in the same order; kill moments and clocks vary), `TRIP_SEEDS=1-40,74` a
/// set. `TRIP_LONG_TESTS=1` runs 200 seeds.
@Suite("Shared trips: every device converges, whatever they do in whatever order")
struct ConvergenceTests {
    static let seeds: [Int] =
        ProcessInfo.processInfo.environment["TRIP_SEED"].flatMap { Int($0) }.map { [$0] }
        ?? ProcessInfo.processInfo.environment["TRIP_SEEDS"].map(Self.seedList)
        ?? HardeningScale.pick(short: [1, 2, 3], long: Array(1...200))

    /// `TRIP_SEEDS=35,67,100-130`: the seeds listed and the ranges, to replay a set at once.
    static func seedList(_ text: String) -> [Int] {
        text.split(separator: ",").flatMap { part -> [Int] in
            let ends = part.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard let first = ends.first, let last = ends.last, first <= last else { return [] }
            return Array(first...last)
        }
    }

    /// The command mix: everything a traveller can do on a shared trip, how often a step does it,
    /// what the device is asked first (its purchases, its open conflicts), and the arguments, drawn
    /// from that (nil: nothing to apply it to; the step does nothing). Ids and member names are
    /// guesses that may no longer hold: a refusal (exit 64 or 65) is fine and only counted.
    static let moves: [(name: String, weight: Int, needs: Needs, args: @Sendable (inout Draw) -> [String]?)] = [
        ("add", 12, .nothing, { d in ["add", d.amount()] + d.currency() + [d.note] + d.payer() + d.split() + d.date() }),
        ("credit", 2, .nothing, { d in ["add", d.amount(upTo: 30), d.note, "--refund"] + d.payer() }),
        ("edit note", 4, .purchases, { d in d.row().map { ["edit", "\($0.id)", "--note", "\($0.token) e\(d.step)"] } }),
        ("edit amount", 4, .purchases, { d in d.row().map { ["edit", "\($0.id)", "--amount", d.amount()] + d.split() } }),
        ("rm", 4, .purchases, { d in d.row().map { ["rm", "\($0.id)"] } }),
        ("refund", 3, .purchases, { d in d.row().map { ["refund", "\($0.id)"] + (d.chance(4) ? [] : [d.amount(upTo: 40)]) } }),
        ("move away", 2, .purchases, { d in d.row().map { ["edit", "\($0.id)", "--trip", "Other"] } }),  // to this device's own trip
        ("restore", 3, .nothing, { d in d.restore() }),  // or move back what this device moved away
        ("member add", 3, .nothing, { d in ["member", "add", d.memberAnyCase()] }),
        ("member rename", 1, .nothing, { d in ["member", "rename", d.member(), d.member()] }),
        // Back and forth, in any case: Dave to David, a new Dave, David back to dave.
        ("member rename back", 3, .nothing, { d in ["member", "rename", d.memberAnyCase(), d.memberAnyCase()] }),
        ("member rm", 1, .nothing, { d in ["member", "rm", d.member()] }),
        ("whoami", 1, .nothing, { d in ["whoami", d.member()] }),
        ("transfer", 3, .nothing, { d in ["transfer", d.member(), d.member(), d.amount(upTo: 50)] }),
        // A transfer id is a guess too: local ids differ from device to device.
        (
            "transfer edit", 2, .nothing,
            { d in
                ["transfer", "edit", "T\(d.int(1...6))", "--amount", d.amount(upTo: 50)] + (d.chance(3) ? ["--to", d.member()] : [])
            }
        ),
        ("transfer rm", 1, .nothing, { d in [d.chance(2) ? "transfer" : "", "rm", "T\(d.int(1...6))"].filter { !$0.isEmpty } }),
        ("settle --record", 1, .nothing, { _ in ["settle", "--record"] }),
        ("close", 1, .nothing, { _ in ["close"] }),
        ("reopen", 2, .nothing, { _ in ["reopen"] }),
        ("resolve", 2, .conflicts, { d in d.conflict().map { ["resolve", "\($0)", "--keep", d.keep()] } }),
        ("rates set", 2, .nothing, { d in ["rates", "set"] + d.rate() + ["--date", d.day()] }),
        ("sync", 10, .nothing, { _ in ["sync"] }),
        ("killed sync", 3, .nothing, { _ in ["sync"] }),  // SIGKILLed after 0 to 150 ms
        ("restart", 3, .nothing, { _ in ["sync"] }),  // the server, during that sync; only seeds with a private cluster
    ]

    /// Seeds that the widened test (issue 34) found diverging and that are not fixed yet, each with
    /// what it shows. Each is still run and its issues still printed, as known issues, so that the
    /// other seeds keep guarding what holds; a seed fixed here passes either way. Remove a seed
    /// once its defect is fixed; never add one to make a run pass without an open defect that names it.
    /// None: the 8 of 200 seeds found on 2026-11-28 pass since (a removal kept by a refund listed
    /// from the log's order; a rate set on a device whose shared trip is closed re-rates it there).
    static let knownDivergences: [Int: String] = [:]

    @Test(arguments: ConvergenceTests.seeds)
    func everyDeviceEndsTheSame(seed: Int) {
        guard let known = Self.knownDivergences[seed] else { return run(seed) }
        withKnownIssue("seed \(seed), an open defect: \(known)", isIntermittent: true) { run(seed) }
    }

    func run(_ seed: Int) {
        do {
            try converge(seed)
        } catch is ExpectationFailedError {  // a `#require` that failed: recorded already, with its seed
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }

    func converge(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(bitPattern: Int64(seed)))
        // A private cluster, to restart, costs a few seconds to start: a third of the seeds.
        let cluster = try seed % 3 == 0 ? PostgresCluster.startPrivate("convergence-\(seed)") : nil
        defer { try? cluster?.control("stop") }
        let world = try SharedTripWorld(cluster: cluster)
        let trip = "Conv\(seed)"
        let labels = ["ana", "ben", "carla", "dave", "ana2"]
        var devices = labels.map { Device(label: $0, trip: world.device($0 == "ana2" ? "ana" : $0, ledger: $0)) }
        // Dave joins late and is revoked later on: his syncs are refused from then on (exit 77), and
        // what he did after his last sync reaches nobody.
        let steps = HardeningScale.pick(short: 60, long: 80)
        let late = labels.firstIndex(of: "dave")!
        let joinStep = Int.random(in: 2...steps / 3, using: &random), revokeStep = Int.random(in: steps / 2...steps * 3 / 4, using: &random)
        var daveTokens: Set<String> = []
        devices[late].joined = false
        func setUp(_ d: Device, _ args: [String]) throws {
            let r = try d.trip.run(args)
            try #require(r.exitCode == 0, "seed \(seed), setup on \(d.label): trip \(args.joined(separator: " ")): \(r.stderr)")
        }
        try setUp(devices[0], ["new", trip, "--currency", "EUR", "--home", "EUR"])
        try setUp(devices[0], ["member", "add", "ana", "ben", "carla"])
        try setUp(devices[0], ["whoami", "ana"])  // the payer is never a guess (issue 27); a join sets the others'
        try setUp(devices[0], ["add", "40", "s\(seed)-0a", "--paid-by", "ana"])
        try setUp(devices[0], ["add", "25.50", "USD", "s\(seed)-0b", "--paid-by", "ben", "--split", "ben,carla"])
        try setUp(devices[0], ["share"] + Set(labels.dropFirst()).subtracting(["ana2"]).sorted().flatMap { ["--with", $0] })
        for d in devices.dropFirst() where d.label != "dave" { try setUp(d, ["join", trip]) }
        for d in devices {
            try setUp(d, ["new", "Other", "--currency", "EUR", "--home", "EUR"])
            if d.label != "dave" { try setUp(d, ["use", trip]) }
        }

        // The model: every purchase's or credit's note starts with a token of its own, the step
        // that added it; an edit of the note keeps it. `removed`: removed or moved away somewhere.
        var added: Set = ["s\(seed)-0a", "s\(seed)-0b"], removed: Set<String> = []
        var refused = 0, killed = 0, restarts = 0
        let mix = Self.moves.filter { $0.name != "restart" || cluster != nil }
        for step in 1...steps {
            if step == joinStep {
                let r = try devices[late].trip.run("join", trip)
                #expect(r.exitCode == 0, "seed \(seed), step \(step): dave's late join: \(r.stderr)")
                devices[late].joined = true
            }
            if step == revokeStep {
                let r = try devices[0].trip.run("unshare", trip, "--with", "dave")
                #expect(r.exitCode == 0, "seed \(seed), step \(step): unshare --with dave: \(r.stderr)")
                devices[late].revoked = true
            }
            let i = Int.random(in: 0..<devices.count, using: &random)
            if !devices[i].joined { continue }
            // A move at random, each as often as its weight: the first whose running total passes the ticket.
            let ticket = Int.random(in: 0..<mix.map(\.weight).reduce(0, +), using: &random)
            let move = mix[mix.indices.first { mix[...$0].map(\.weight).reduce(0, +) > ticket } ?? 0]
            let at = "seed \(seed), step \(step), \(devices[i].label)"
            switch move.name {
            case "sync":
                if ProcessInfo.processInfo.environment["TRIP_TRACE_STEPS"] == "1" { print("\(at): sync") }
                try sync(&devices[i], at)
            case "killed sync":
                let p = try SpawnedTrip(devices[i].trip, ["sync"], label: "killed-\(step)")
                usleep(UInt32.random(in: 0...150_000, using: &random))
                if p.isRunning {  // else it ended (and was reaped): its pid may be another's by now
                    p.kill()
                    killed += 1
                }
                let end = p.wait()
                let fine =
                    end.signal == SIGKILL || end.exitCode == 0 || (end.exitCode == 69 && devices[i].afterRestart)
                    || (end.exitCode == 77 && devices[i].revoked)
                #expect(fine, "\(at): trip sync, killed, ended with \(end): \(p.stderr)")
                devices[i].rows = nil
            case "restart":
                let p = try SpawnedTrip(devices[i].trip, ["sync"], label: "restart-\(step)")
                usleep(UInt32.random(in: 0...100_000, using: &random))
                try cluster?.control("restart")
                restarts += 1
                let end = p.wait()
                #expect(
                    end.exitCode == 0 || end.exitCode == 69 || (end.exitCode == 77 && devices[i].revoked),
                    "\(at): trip sync during a server restart ended with \(end): \(p.stderr)")
                for k in devices.indices { devices[k].afterRestart = true }
                devices[i].rows = nil
            default:
                var draw = Draw(random: random, note: "s\(seed)-\(step)", step: step, trip: trip, trash: devices[i].trash)
                if move.needs == .purchases { draw.rows = try devices[i].listed(at) }
                if move.needs == .conflicts { draw.conflicts = try openConflicts(devices[i].trip, at) }
                let drawn = move.args(&draw)
                random = draw.random
                guard let args = drawn else { continue }
                let r = try devices[i].trip.run(args)
                // TRIP_TRACE_STEPS=1 prints every step, to follow a failing seed.
                if ProcessInfo.processInfo.environment["TRIP_TRACE_STEPS"] == "1" { print("\(at): \(args.joined(separator: " ")) -> \(r.exitCode)") }
                guard r.exitCode == 0 else {
                    #expect([64, 65].contains(r.exitCode), "\(at): trip \(args.joined(separator: " ")) exited \(r.exitCode): \(r.stderr)")
                    refused += 1
                    continue
                }
                devices[i].rows = nil
                switch (move.name, draw.chosen) {
                case ("add", _), ("credit", _):
                    added.insert(draw.note)
                    if i == late { daveTokens.insert(draw.note) }
                case ("rm", let row?), ("move away", let row?):
                    if row.kind != "refund" { removed.insert(row.token) }
                    devices[i].trash.append(move.name == "rm" ? row : Row(id: row.id, token: row.token, kind: "moved"))
                case ("restore", let row?): devices[i].trash.removeAll { $0.id == row.id }
                default: break
                }
            }
        }

        // Final round: every device syncs three times, in turn; nothing is reopened or resolved.
        // The third: a change held for a close and sent by a device's second sync (the trip was
        // reopened by a device after it in the order) reaches the devices before it.
        for _ in 0..<3 { for i in devices.indices { try sync(&devices[i], "seed \(seed), final sync, \(devices[i].label)") } }
        // Dave, revoked, is left out: his copy stays as it was.
        devices.removeAll { $0.revoked }
        let compared = devices.map(\.label)
        let views = try devices.map { try View($0.trip, "seed \(seed), \($0.label)") }
        for (label, view) in zip(compared, views) {
            #expect(view.setAside.isEmpty, "seed \(seed): \(label) set aside changes it could not apply: \(view.setAside)")
        }
        if ProcessInfo.processInfo.environment["TRIP_TRACE_STEPS"] == "1" {
            for d in devices { print("\(d.label):\n\(try d.trip.run("list").stdout)\(try d.trip.run("conflicts").stdout)") }
        }
        if let j = views.indices.first(where: { views[$0].shown != views[0].shown }) {
            for (k, (first, other)) in zip(views[0].shown, views[j].shown).enumerated() where first != other {
                let only = "only on \(compared[j]):\n\(Self.unmatched(other, first))\nonly on \(compared[0]):\n\(Self.unmatched(first, other))"
                Issue.record("seed \(seed): \(compared[j]) shows another \(View.parts[k]) than \(compared[0]); \(only)")
            }
        }
        for (label, view) in zip(compared, views) {
            let units = view.balances.map(Self.minorUnits)
            #expect(!units.contains(nil) && units.compactMap { $0 }.reduce(0, +) == 0, "seed \(seed): \(label)'s balances \(view.balances)")
        }
        // No purchase lost or doubled. A removal may lose (to a refund elsewhere, or to a restore),
        // so the model checks the weaker form: at most once on each device, on every device or on
        // none, and, if never removed anywhere, on every device: unless a conflict holds it (a
        // change made while another device had closed the trip waits, or `--keep theirs` dropped
        // it). Open conflicts are not compared between devices: each lists what it saw, and a
        // change waiting on a closed trip is listed only where it waits.
        let held = views.flatMap(\.conflicts)
        for token in added.sorted() {
            let counts = views.map { $0.tokens.filter { $0 == token }.count }
            let on = zip(compared, counts).map { "\($0) \($1)" }.joined(separator: ", ")
            #expect(counts.allSatisfy { $0 <= 1 }, "seed \(seed): \(token) doubled: \(on)")
            #expect(Set(counts.map { $0 > 0 }).count == 1, "seed \(seed): \(token) on some devices only: \(on)")
            let isHeld = held.contains { $0.contains("\"\(token)\"") || $0.contains("\"\(token) ") }
            // What Dave did after his last sync before the revocation reaches nobody.
            let revokedWith = daveTokens.contains(token)
            #expect(
                removed.contains(token) || !counts.contains(0) || isHeld || revokedWith, "seed \(seed): \(token), never removed, is lost: \(on)")
        }
        let unknown = Set(views.flatMap(\.tokens)).subtracting(added)
        #expect(unknown.isEmpty, "seed \(seed): purchases no command added: \(unknown.sorted())")
        print(
            "convergence seed \(seed): \(devices.count) devices, \(steps) steps, \(refused) commands refused, \(killed) syncs killed,"
                + " \(restarts) restarts")
    }

    enum Needs { case nothing, purchases, conflicts }

    /// A row of a device's `trip list`: its local id, its note's first word, its kind.
    struct Row {
        let id: Int
        let token: String
        let kind: String
    }

    /// What a step's arguments are drawn from: the seeded generator and what the device has.
    struct Draw {
        static let names = ["ana", "ben", "carla", "dave", "eve"]
        var random: SplitMix64
        let note: String  // "s{seed}-{step}": unique
        let step: Int
        let trip: String
        var trash: [Row]  // what this device removed or moved away
        var rows: [Row] = []
        var conflicts: [Int] = []
        var chosen: Row?

        mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &random) == 0 }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        mutating func amount(upTo limit: Int = 150) -> String { chance(2) ? "\(int(1...limit))" : "\(int(1...limit)).\(int(10...99))" }
        mutating func member() -> String { Self.names[int(0...Self.names.count - 1)] }
        /// A member's name as a traveller may type it: lower case, capitalised, or David for Dave.
        mutating func memberAnyCase() -> String {
            let name = chance(4) ? "david" : member()
            return chance(2) ? name : name.prefix(1).uppercased() + name.dropFirst()
        }
        /// Every way `trip resolve --keep` names a version: 1, 2, mine, theirs, or who wrote it.
        mutating func keep() -> String { ["1", "2", "mine", "theirs", "ana", "ben", "carla", "dave"][int(0...7)] }
        mutating func day() -> String { "2026-03-0\(int(1...8))" }
        mutating func currency() -> [String] { chance(4) ? ["USD"] : [] }
        mutating func payer() -> [String] { chance(2) ? [] : ["--paid-by", member()] }
        mutating func date() -> [String] { chance(2) ? [] : ["--date", day()] }
        mutating func split() -> [String] {
            switch int(0...3) {
            case 0: []
            case 1: ["--split", "all"]
            default: ["--split", Set([member(), member()]).sorted().joined(separator: ",")]
            }
        }
        /// A manual rate between the trip's currencies, either way round.
        mutating func rate() -> [String] { chance(2) ? ["USD", "0.\(int(80...95))", "--in", "EUR"] : ["EUR", "1.\(int(10...25))", "--in", "USD"] }
        mutating func row() -> Row? {
            chosen = rows.isEmpty ? nil : rows[int(0...rows.count - 1)]
            return chosen
        }
        /// `restore ID` of a purchase this device removed, `edit ID --trip TRIP` of one it moved away.
        mutating func restore() -> [String]? {
            chosen = trash.isEmpty ? nil : trash[int(0...trash.count - 1)]
            guard let row = chosen else { return nil }
            return row.kind == "moved" ? ["edit", "\(row.id)", "--trip", trip] : ["restore", "\(row.id)"]
        }
        mutating func conflict() -> Int? { conflicts.isEmpty ? nil : conflicts[int(0...conflicts.count - 1)] }
    }

    struct Device {
        let label: String
        let trip: TripProcess
        var trash: [Row] = []
        var rows: [Row]?  // its `trip list` while nothing changed it
        var afterRestart = false  // the server restarted since its last sync
        var joined = true  // Dave joins late
        var revoked = false

        mutating func listed(_ at: String) throws -> [Row] {
            if let rows { return rows }
            let r = try trip.run("list", "--format", "json")
            #expect(r.exitCode == 0, "\(at): trip list: \(r.stderr)")
            let listed = (r.json["purchases"] as? [[String: Any]] ?? []).compactMap { p -> Row? in
                guard let id = p["id"] as? Int, let kind = p["kind"] as? String else { return nil }
                return Row(id: id, token: ConvergenceTests.token(p["note"]), kind: kind)
            }
            rows = listed
            return listed
        }
    }

    /// What a device shows once every device synced: the parts that must be the same everywhere,
    /// the tokens of its purchases and credits (a refund carries its purchase's note), its
    /// members' balances, and both versions of every conflict it has seen (`--all`).
    struct View {
        static let parts = ["members", "report", "balances", "settle-up", "list of purchases", "list of transfers", "conflicts"]
        var shown: [String]
        let tokens: [String]
        let balances: [String]
        let conflicts: [String]
        /// Pulled changes this device could not apply (`trip conflicts`): none, when every rule holds.
        let setAside: [String]

        init(_ d: TripProcess, _ at: String) throws {
            func json(_ args: String...) throws -> TripResult {
                let r = try d.run(args + ["--format", "json"])
                #expect(r.exitCode == 0, "\(at): trip \(args.joined(separator: " ")): \(r.stderr)")
                return r
            }
            let members = try json("members").json["members"] as? [[String: Any]] ?? []
            let balances = try json("balances")
            let list = try json("list").json["purchases"] as? [[String: Any]] ?? []
            let report = try json("report").stdout, settle = try json("settle").stdout
            // Not `snapshot(_:)`: its failures could not name the seed.
            let names = members.compactMap { $0["name"] as? String }.joined(separator: ",")
            let transfers = try json("transfers").json["transfers"] as? [[String: Any]] ?? []
            shown = [names, report, balances.stdout, settle, ConvergenceTests.canonical(list), ConvergenceTests.canonical(transfers)]
            tokens = list.filter { $0["kind"] as? String != "refund" }.map { ConvergenceTests.token($0["note"]) }
            self.balances = (balances.json["members"] as? [[String: Any]] ?? []).map { $0["balance"] as? String ?? "?" }
            let listed = try json("conflicts", "--all").json
            let all = listed["conflicts"] as? [[String: Any]] ?? []
            setAside = (listed["set_aside"] as? [[String: Any]] ?? []).map { "\($0["seq"] ?? "") \($0["gid"] ?? ""): \($0["reason"] ?? "")" }
            conflicts = all.flatMap { [$0["mine"] as? String ?? "", $0["theirs"] as? String ?? ""] }
            // Conflicts between versions that reached the server are the same on every device
            // (a change held because the trip was closed elsewhere waits only where it was made).
            let travelling = all.filter { !($0["gid"] as? String ?? "").isEmpty }.map(ConflictsTravelTests.identity).sorted()
            shown.append(travelling.joined(separator: "\n"))
        }
    }

    /// `trip sync`, which must succeed; right after a server restart a 69 (not back yet) is retried
    /// once, after a short sleep.
    func sync(_ d: inout Device, _ at: String) throws {
        var r = try d.trip.run("sync")
        if r.exitCode == 69 && d.afterRestart {
            usleep(500_000)
            r = try d.trip.run("sync")
        }
        // A revoked device is told so (77), and its changes stay with it.
        #expect(r.exitCode == 0 || (d.revoked && r.exitCode == 77), "\(at): trip sync exited \(r.exitCode): \(r.stderr)")
        if r.exitCode == 0 { d.afterRestart = false }
        d.rows = nil
    }

    func openConflicts(_ d: TripProcess, _ at: String) throws -> [Int] {
        let r = try d.run("conflicts", "--format", "json")
        #expect(r.exitCode == 0, "\(at): trip conflicts: \(r.stderr)")
        return (r.json["conflicts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    static func token(_ note: Any?) -> String { String((note as? String ?? "").split(separator: " ").first ?? "") }

    /// The purchases as every device must list them: each row whole but for its local id (a refund
    /// names its purchase by note, not by local id), sorted.
    static func canonical(_ list: [[String: Any]]) -> String {
        var notes: [Int: String] = [:]
        for p in list { if let id = p["id"] as? Int { notes[id] = p["note"] as? String ?? "" } }
        return list.map { p in
            var row = p
            row["id"] = nil
            row["ref"] = nil
            if let of = p["refund_of"] as? Int { row["refund_of"] = notes[of] ?? "#\(of), not listed" }
            let data = (try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }.sorted().joined(separator: "\n")
    }

    /// The lines of `a` that `b` lacks, each line of `b` matching one of `a`.
    static func unmatched(_ a: String, _ b: String) -> String {
        var rest = b.split(separator: "\n")
        return a.split(separator: "\n").filter { line in
            guard let k = rest.firstIndex(of: line) else { return true }
            rest.remove(at: k)
            return false
        }.joined(separator: "\n")
    }

    /// "-7.34" → -734: an amount with two decimals (EUR) in minor units, from its digits, never
    /// through a Double; nil for anything else.
    static func minorUnits(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        let parts = text.dropFirst(negative ? 1 : 0).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let whole = Int(parts[0]), let cents = Int(parts[1])
        else { return nil }
        return (negative ? -1 : 1) * (whole * 100 + cents)
    }
}
