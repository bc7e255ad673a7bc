import TripCore
import TripModel

/// Text and JSON of the sharing commands (README, "JSON contract": sync, remote status, conflicts).
public enum SharingFormat {
    /// `trip resolve ID --keep …`: which version was kept, and whether that changed anything.
    public static func text(resolved c: SyncConflict, kept v: ConflictVersion, outcome: SyncConflict.Outcome) -> String {
        let what =
            "Resolved conflict \(c.id)\(c.sharedID.map { " (\($0))" } ?? ""): kept version \(v.number), \(v.isNobodys ? "as on the other devices" : "by \(v.label)")"
        switch outcome {
        case .shownAlready: return what + ", which every device shows already."
        case .writtenAgain: return what + "; it is written again here and every device shows it after its next sync."
        case .sentPastClose: return what + "; this device's change is sent at the next sync, though the trip is closed."
        case .removed(let ids):
            let list = ids.map { "#\($0)" }.joined(separator: ", ")
            return what + "; removed \(list) here, and every device removes them after its next sync."
        }
    }

    /// `trip unshare --with ROLE…`.
    public static func text(revoked roles: [String]) -> String { "No longer shared with \(roles.joined(separator: ", "))." }

    public static func json(revoked roles: [String]) -> JSONValue { .object(["revoked": .array(roles.map { .string($0) })]) }

    public static func text(_ r: SyncResult) -> String {
        var parts = ["pushed \(r.pushed)"]
        let authors = r.pulledBy.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        parts.append("pulled \(r.pulled)" + (authors.isEmpty ? "" : " (\(authors.joined(separator: ", ")))"))
        if r.conflicts > 0 { parts.append("\(r.conflicts) conflict\(r.conflicts == 1 ? "" : "s")") }
        if r.setAside > 0 { parts.append("\(r.setAside) set aside (`trip conflicts`)") }
        let sign = r.change > 0 ? "+" : r.change < 0 ? "-" : "±"
        let change = Money(minorUnits: abs(r.change), currency: r.home).plainText
        let before =
            r.joinedBefore
            ? "already joined here, brought up to date: " : r.movedFrom.map { "moved here from \($0): " } ?? ""
        var line = "\(r.trip): \(before)\(parts.joined(separator: ", ")); total \(sign)\(Money.group(change)) \(r.home.code)"
        if !r.grantedTo.isEmpty { line += "; shared with \(r.grantedTo.joined(separator: ", "))" }
        if r.held > 0 {
            let by = r.closedBy.isEmpty ? "another device" : r.closedBy
            line +=
                "\n\(r.held) change\(r.held == 1 ? "" : "s") wait\(r.held == 1 ? "s" : "") here: made while \(by) had closed the trip;"
                + " sent by the first sync after it is reopened."
        }
        for h in r.heldElsewhere {
            line += "\n\(h.role)'s device holds \(h.count) change\(h.count == 1 ? "" : "s") made while the trip was closed."
        }
        switch r.joinedAs {
        case .named(let name)?: line += "\nYou are \(name) on this device (`trip whoami` changes it)."
        case .unknown(let role)?:
            line += "\nNo member of \(r.trip) is named \(role): say which one you are with `trip whoami NAME`, or give --paid-by."
        case nil: break
        }
        return line
    }

    public static func json(_ r: SyncResult) -> JSONValue {
        .object([
            "trip": .string(r.trip), "pushed": .int(Int64(r.pushed)), "sent": .int(Int64(r.sent)), "pulled": .int(Int64(r.pulled)),
            "pulled_by": .object(r.pulledBy.mapValues { .int(Int64($0)) }), "rates": .int(Int64(r.rates)),
            "conflicts": .int(Int64(r.conflicts)), "currency": .string(r.home.code),
            "total": .string(Money(minorUnits: r.total, currency: r.home).plainText),
            "total_change": .string(Money(minorUnits: r.change, currency: r.home).plainText),
            "shared_with": .array(r.grantedTo.map { .string($0) }), "joined_before": .bool(r.joinedBefore),
            "set_aside": .int(Int64(r.setAside)), "held": .int(Int64(r.held)),
            "held_elsewhere": .array(r.heldElsewhere.map { .object(["by": .string($0.role), "count": .int(Int64($0.count))]) }),
            "moved_from": JSONValue(r.movedFrom),
        ])
    }

    public static func text(_ run: SyncRun) -> String {
        if run.results.isEmpty && run.failures.isEmpty { return "No shared trips; `trip share` publishes one." }
        return (run.results.map(text) + run.failures.map { "\($0.trip): not synced: \($0.message)" }).joined(separator: "\n")
    }

    public static func json(_ run: SyncRun) -> JSONValue {
        var object: [String: JSONValue] = ["trips": .array(run.results.map(json))]
        if !run.failures.isEmpty {
            object["failed"] = .array(
                run.failures.map { .object(["trip": .string($0.trip), "error": .string($0.message), "exit_code": .int(Int64($0.exitCode))]) })
        }
        return .object(object)
    }

    public static func text(_ r: SchemaInstall) -> String {
        r.from == r.to
            ? "\(r.server): trip schema \(r.to) already in place (role \(r.role))."
            : "\(r.server): trip schema \(r.from == 0 ? "created" : "upgraded from \(r.from)") at version \(r.to) (role \(r.role))."
    }

    public static func json(_ r: SchemaInstall) -> JSONValue {
        .object(["server": .string(r.server), "role": .string(r.role), "schema_before": .int(Int64(r.from)), "schema": .int(Int64(r.to))])
    }

    public static func text(_ s: ServerStatus) -> String {
        var lines: [String] = []
        if s.reachable {
            let schema = s.schema.map { $0 == 0 ? "none (run `trip remote init`)" : "\($0)" } ?? "unknown"
            lines.append("Server: \(s.server), reachable as \(s.role ?? "?"); schema \(schema) (this trip knows \(s.known)).")
        } else {
            lines.append("Server: \(s.server), not reachable: \(s.problem.map { "\($0)" } ?? "unknown")")
        }
        if s.trips.isEmpty { lines.append("No shared trips on this ledger.") }
        for t in s.trips {
            let state: String
            if let other = t.sharedOn {
                state = "shared on \(other), not on this server: nothing will be sent (`trip remote move \(quoted(t.name))` moves it here)"
            } else if t.revoked {
                state = "revoked: this role no longer has access to it on this server; nothing will be sent"
            } else {
                state = t.onServer.map { $0 > t.pulled ? "\($0 - t.pulled) to pull" : "up to date" } ?? ""
            }
            let partly = t.joinedPartly ? "; only partly joined (`trip join \(quoted(t.name))` brings the rest)" : ""
            let parts = ["\(t.unsent) unsent", state].filter { !$0.isEmpty }.joined(separator: ", ")
            lines.append("  \(t.name) (owner \(t.owner)): \(parts)\(partly); last sync \(t.lastSync ?? "never")")
        }
        return lines.joined(separator: "\n")
    }

    public static func json(_ s: ServerStatus) -> JSONValue {
        .object([
            "server": .string(s.server), "reachable": .bool(s.reachable), "role": JSONValue(s.role),
            "schema": s.schema.map { .int(Int64($0)) } ?? .null, "schema_known": .int(Int64(s.known)),
            "problem": JSONValue(s.problem.map { "\($0)" }),
            "trips": .array(
                s.trips.map { t in
                    .object([
                        "trip": .string(t.name), "owner": .string(t.owner), "unsent": .int(Int64(t.unsent)),
                        "last_sync": JSONValue(t.lastSync), "pulled_seq": .int(t.pulled),
                        "server_seq": t.onServer.map { .int($0) } ?? .null, "revoked": .bool(t.revoked),
                        "shared_on": JSONValue(t.sharedOn), "joined_partly": .bool(t.joinedPartly),
                    ])
                }),
        ])
    }

    /// `trip conflicts`: each conflict with its two versions, numbered and labelled by who wrote
    /// them, as purchases (or transfers, members) a traveller reads, and what differs.
    public static func text(_ conflicts: [SyncConflict]) -> String {
        guard !conflicts.isEmpty else { return "No conflicts." }
        return conflicts.map { c in
            // Shared ids (the same on every device) beside the numbers of this device.
            let what = "\(c.kind) #\(c.localID)" + (c.rowSharedID.map { " (\($0))" } ?? "")
            let shown = c.versions.first(where: \.kept).map { "shows version \($0.number)" } ?? "kept: \(c.winner)"
            let state = c.resolvedAt.map { "resolved \($0)\(c.resolvedBy.map { " by \($0)" } ?? ""); \(shown)" } ?? shown
            var lines = ["\(c.id)\(c.sharedID.map { " (\($0))" } ?? "")  \(c.trip)  \(what): \(c.reason); \(state)"]
            let labels = c.versions.map { "version \($0.number), \($0.byLine):" }
            let width = labels.map(\.count).max() ?? 0
            for (v, label) in zip(c.versions, labels) {
                // A version with no clock is a row the server never had (a change that waits).
                let removed = v.isNobodys ? "(not there)" : "(removed)"
                lines.append("    \(label)\(String(repeating: " ", count: width - label.count)) \(v.summary ?? removed)")
            }
            // What differs, in the versions' order; `--format json` has both versions whole.
            let mineFirst = c.versions.first?.isMine ?? true
            let fieldWidth = c.differences.map(\.field.count).max() ?? 0
            for d in c.differences {
                let (one, two) = mineFirst ? (d.mine, d.theirs) : (d.theirs, d.mine)
                let pad = String(repeating: " ", count: fieldWidth - d.field.count)
                lines.append("    \(d.field)\(pad)  1: \(one)  2: \(two)")
            }
            // Last, what settles it: each version that may be kept.
            for choice in c.choices { lines.append("    settle: `\(choice.command)` \(choice.effect)") }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `trip conflicts`, then the pulled changes set aside because they could not be applied here.
    public static func text(_ conflicts: [SyncConflict], setAside: [SetAsideChange]) -> String {
        guard !setAside.isEmpty else { return text(conflicts) }
        let lines = setAside.map { s in
            "  \(s.trip)  \(s.kind) \(s.gid) (\(s.op), server seq \(s.seq), by \(s.author.isEmpty ? "another device" : s.author)): \(s.reason)"
        }
        let head =
            "Set aside: \(setAside.count) pulled change\(setAside.count == 1 ? "" : "s") that could not be applied here; the sync went on past them."
        let parts = (conflicts.isEmpty ? [] : [text(conflicts)]) + [head] + lines
        return parts.joined(separator: "\n")
    }

    public static func json(_ conflicts: [SyncConflict], setAside: [SetAsideChange]) -> JSONValue {
        guard case .object(var object) = json(conflicts) else { return json(conflicts) }
        object["set_aside"] = .array(
            setAside.map { s in
                .object([
                    "trip": .string(s.trip), "seq": .int(s.seq), "kind": .string(s.kind), "gid": .string(s.gid), "op": .string(s.op),
                    "by": .string(s.author), "reason": .string(s.reason), "set_aside_at": .string(s.setAsideAt),
                ])
            })
        return .object(object)
    }

    public static func json(_ conflicts: [SyncConflict]) -> JSONValue {
        .object([
            "conflicts": .array(
                conflicts.map { c in
                    .object([
                        "id": .int(c.id), "gid": .string(c.gid), "trip": .string(c.trip), "kind": .string(c.kind),
                        "local_id": .int(c.localID), "reason": .string(c.reason), "winner": .string(c.winner), "mine": JSONValue(c.mine),
                        "theirs": JSONValue(c.theirs), "theirs_by": .string(c.theirsBy), "created_at": .string(c.createdAt),
                        "resolved_at": JSONValue(c.resolvedAt), "resolved_by": JSONValue(c.resolvedBy),
                        "shared_id": JSONValue(c.sharedID), "row_shared_id": JSONValue(c.rowSharedID),
                        "settle": .array(
                            c.choices.map { .object(["keep": .int(Int64($0.number)), "command": .string($0.command), "effect": .string($0.effect)]) }),
                        "versions": .array(
                            c.versions.map { v in
                                .object([
                                    "number": .int(Int64(v.number)), "by": .string(v.author), "device": .string(v.device),
                                    "label": .string(v.label), "this_device": .bool(v.thisDevice), "kept": .bool(v.kept),
                                    "removed": .bool(v.payload == nil), "summary": JSONValue(v.summary), "row": JSONValue(v.payload),
                                ])
                            }),
                    ])
                })
        ])
    }
}
