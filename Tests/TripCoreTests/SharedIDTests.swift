import Testing
import TripCore

/// `SharedID` is the one rule every device follows to name a shared trip's rows alike.
@Suite struct SharedIDTests {
    static let gids = (0..<2000).map { "0196f0c2-7a10-7\(String($0, radix: 16))-8000-00000000000\($0 % 10)" }

    @Test func aCodeIsAKindLetterAHyphenAndFiveUnambiguousCharacters() {
        for gid in Self.gids {
            for kind in SharedID.Kind.allCases {
                let code = SharedID.code(kind, gid: gid)
                #expect(code.hasPrefix(kind.rawValue + "-") && code.count == 2 + SharedID.shownLength, "\(code)")
                #expect(code.dropFirst(2).allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) }, "\(code)")
                // Never a number, an amount or a transfer's T3, even when its characters are all digits.
                #expect(Double(code) == nil && Int(code) == nil && !code.hasPrefix("T"))
            }
        }
    }

    /// The same global id gives the same code on every device and in every run: a worked example.
    @Test func theCodeIsAFixedFunctionOfTheGlobalID() {
        let gid = "0196f0c2-7a10-7abc-8def-0123456789ab"
        #expect(SharedID.code(.purchase, gid: gid) == SharedID.code(.purchase, gid: String(gid)))
        #expect(SharedID.code(.purchase, gid: gid).dropFirst(2) == SharedID.code(.conflict, gid: gid).dropFirst(2))
        #expect(SharedID.code(.purchase, gid: gid) == "p-\(Self.example)")
        #expect(SharedID.code(.purchase, gid: gid, length: SharedID.fullLength).count == 2 + SharedID.fullLength)
    }

    static let example = "q14py"

    /// Global ids made in one millisecond differ only near their end; their codes spread all the same.
    @Test func neighbouringGlobalIDsGetDifferentCodes() {
        let codes = Set(Self.gids.map { SharedID.code(.purchase, gid: $0) })
        #expect(codes.count >= Self.gids.count - 1, "\(Self.gids.count - codes.count) collisions")
        let firsts = Set(Self.gids.map { SharedID.code(.purchase, gid: $0).dropFirst(2).prefix(1) })
        #expect(firsts.count == 32)
    }

    @Test(
        arguments: [
            ("p-7kq4x", SharedID.Kind.purchase, "7kq4x"), ("P-7KQ4X", .purchase, "7kq4x"), ("t-3mf2a", .transfer, "3mf2a"),
            ("c-9xk2m", .conflict, "9xk2m"), ("p-o0il1", .purchase, "00111"), ("p-7kq4xab3c9zz", .purchase, "7kq4xab3c9zz"),
        ])
    func readsWhatPeopleType(text: String, kind: SharedID.Kind, digits: String) throws {
        let parsed = try #require(SharedID.parse(text))
        #expect(parsed.kind == kind && parsed.digits == digits)
    }

    /// Local numbers, transfer refs, amounts and near misses are not shared ids: they keep their meaning.
    @Test(arguments: ["3", "#3", "T3", "t3", "12.50", "-5", "p-7kq4", "p-7kq4xab3c9zzz", "x-7kq4x", "p7kq4x", "p-7kq4u", "p--7kq4", ""])
    func leavesEverythingElseAlone(text: String) {
        #expect(SharedID.parse(text) == nil, "\(text)")
    }

    @Test func moreCharactersOfTheCodeNameTheSameRow() throws {
        let gid = Self.gids[7]
        for length in SharedID.shownLength...SharedID.fullLength {
            let typed = try #require(SharedID.parse(SharedID.code(.purchase, gid: gid, length: length)))
            #expect(SharedID.matches(typed.digits, gid: gid))
            #expect(Self.gids.filter { SharedID.matches(typed.digits, gid: $0) } == [gid] || length == SharedID.shownLength)
        }
    }

    /// Two rows whose five characters agree: each is named by as many characters as tell them apart.
    @Test func rowsThatShareACodeAreToldApartByMoreOfIt() throws {
        var seen: [String: String] = [:]
        var pair: (String, String)?
        for i in 0..<200_000 {
            let gid = "gid-\(i)"
            let code = SharedID.code(.purchase, gid: gid)
            if let other = seen[code] {
                pair = (other, gid)
                break
            }
            seen[code] = gid
        }
        let (a, b) = try #require(pair)
        let both = [a, b]
        let longA = SharedID.distinguishing(.purchase, gid: a, among: both)
        let longB = SharedID.distinguishing(.purchase, gid: b, among: both)
        #expect(longA.count > 2 + SharedID.shownLength && longA != longB)
        #expect(longA.hasPrefix(SharedID.code(.purchase, gid: a)))
        let typedA = try #require(SharedID.parse(longA))
        #expect(both.filter { SharedID.matches(typedA.digits, gid: $0) } == [a])
        // Alone, a row keeps its five characters.
        #expect(SharedID.distinguishing(.purchase, gid: a, among: [a]) == SharedID.code(.purchase, gid: a))
    }
}
