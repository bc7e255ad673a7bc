import TripCore

/// Every failure of the sharing commands, as one line naming the server or the input at fault.
/// No message ever contains a password: servers are named by `RemoteServer.display`, and what
/// libpq says about a connection string passes through `redacting` (its parse errors echo it).
public enum SharingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `[sync] remote` and no `TRIP_REMOTE`.
    case noRemote
    /// The connection string itself is malformed.
    case badRemote(reason: String)
    /// TLS below `verify-ca` for a server that is not on this machine.
    case weakTLS(server: String, sslMode: String)
    case libpqUnavailable(String)
    /// Down, refused, DNS, timeout, TLS handshake, connection cut.
    case unreachable(server: String, reason: String)
    /// Wrong password, unknown role, no access to the database.
    case authentication(server: String, reason: String)
    /// The role was not granted this trip (row-level security), or may not run `remote init`.
    case permission(server: String, reason: String)
    /// `trip remote init` has not run on this server, or ran from an older `trip`.
    case schemaTooOld(server: String, found: Int, needed: Int)
    /// A newer `trip` upgraded the server; this one will not touch it.
    case schemaTooNew(server: String, found: Int, known: Int)
    /// Any other error the server reported.
    case server(sqlState: String, message: String, server: String)
    case tripNotShared(String)
    case noSharedTrip(String)
    /// Several shared trips of that name are visible: each with its owner.
    case ambiguousSharedTrip(String, owners: [String])
    /// Granting or revoking by a role that does not own the trip.
    case notOwner(trip: String, owner: String, role: String)
    /// `trip unshare --with ROLE` of a role the trip was not granted to.
    case notGranted(trip: String, role: String)
    /// The trip is no longer visible to this role: its grant was taken back.
    case revoked(trip: String, server: String)
    /// The configured server is not the one the trip was shared on or joined from (`sharedOn`, as
    /// the user named it then): another identity, or none while the trip's log should be there.
    /// Refused before anything is sent, so that a typo in the port or database name never creates
    /// the trip on another server; `trip remote move` moves it on purpose.
    case otherServer(trip: String, sharedOn: String?, server: String)
    /// The connection failed during a pull, after `pushed` changes went out and `pulled` of `of`
    /// came in and were applied (each batch is committed).
    case interrupted(server: String, trip: String, pushed: Int, pulled: Int, of: Int, reason: String)
    /// The server refused a pushed change (schema 8's `push`, SQLSTATE TL001): `reason` names the
    /// change and what is wrong with it.
    case changeRefused(server: String, reason: String)
    /// The trip was deleted from the server by its administrator (SQLSTATE TL002): it is not
    /// created again.
    case tripDeleted(server: String, reason: String)
    /// Another session held the trip's lock for longer than a sync waits: that session
    /// (`ROLE (process PID, APPLICATION)`), or `nil` when it let go meanwhile.
    case tripLocked(server: String, holder: String?, seconds: Int)
    /// `trip remote init` found a schema `trip_ledger` that it did not create, or that another
    /// role owns: `reason` says which and how to fix it.
    case foreignSchema(server: String, reason: String)
    /// `trip sync --all`: these trips failed (each said on stdout with its reason), the others
    /// synced; the exit code is the first failure's.
    case tripsNotSynced([String], of: Int, exitCode: Int32)

    public var exitCode: Int32 {
        switch self {
        case .noRemote, .badRemote, .weakTLS: 64
        case .changeRefused: 65
        case .tripDeleted, .foreignSchema: 77
        case .tripLocked: 69
        case .tripNotShared, .noSharedTrip, .ambiguousSharedTrip, .notGranted: 65
        case .authentication, .permission, .notOwner, .revoked, .otherServer: 77
        case .interrupted: 69
        case let .tripsNotSynced(_, _, code): code
        case let .server(state, _, _): state.hasPrefix("28") || state == "42501" ? 77 : 69
        case .libpqUnavailable, .unreachable, .schemaTooOld, .schemaTooNew: 69
        }
    }

    public var description: String {
        switch self {
        case .noRemote:
            return "remote: no server configured; set [sync] remote = \"postgresql://…\" in your config or TRIP_REMOTE"
        case let .badRemote(reason):
            return "remote: not a PostgreSQL connection string: \(reason)"
        case let .weakTLS(server, mode):
            return "remote: sslmode \(mode) for \(server) is refused: a server off this machine needs verify-full (the default) or verify-ca"
        case let .libpqUnavailable(reason):
            return "remote: libpq (PostgreSQL's client library) cannot be loaded: \(reason); install libpq5"
        case let .unreachable(server, reason):
            return "remote: \(server) is unreachable: \(reason); nothing was changed"
        case let .authentication(server, reason):
            return "remote: \(server) refused the login: \(reason); nothing was changed"
        case let .permission(server, reason):
            return "remote: \(server): permission denied: \(reason); nothing was changed"
        case let .schemaTooOld(server, found, needed):
            let what = found == 0 ? "has no trip schema" : "has trip schema \(found)"
            return "remote: \(server) \(what), this trip needs \(needed); run `trip remote init` as the database's owner"
        case let .schemaTooNew(server, found, known):
            return "remote: \(server) has trip schema \(found), newer than this trip knows (\(known)); upgrade trip. Nothing was changed"
        case let .server(state, message, server):
            return "remote: \(server): \(message) (SQLSTATE \(state)); nothing was changed"
        case let .tripNotShared(name):
            return "trip \(quoted(name)) is not shared; run `trip share \(quoted(name))` first"
        case let .noSharedTrip(name):
            return "join: no shared trip \(quoted(name)) visible to this role; ask its owner for `trip share \(quoted(name)) --with ROLE`"
        case let .ambiguousSharedTrip(name, owners):
            return "join: several shared trips are named \"\(name)\" (owners: \(owners.joined(separator: ", "))); name one as OWNER/\(name)"
        case let .notOwner(trip, owner, role):
            return "share: only the owner of \(quoted(trip)), \(owner), grants or revokes it (you are \(role)); nothing was changed"
        case let .notGranted(trip, role):
            return "--with: \(quoted(trip)) is not shared with \(role); nothing was changed"
        case let .revoked(trip, server):
            return "remote: \(server): this role no longer has access to \(quoted(trip)) (its owner took it back); "
                + "this device keeps its copy; nothing was changed"
        case let .otherServer(trip, sharedOn, server):
            // A trip shared before servers had identities knows only that it synced elsewhere.
            let place =
                sharedOn.map { "was shared on \($0), not on \(server) (another server)" }
                ?? "synced with another server before: \(server) has no log of it"
            return "remote: \(quoted(trip)) \(place); check [sync] remote or TRIP_REMOTE, or move the trip there with "
                + "`trip remote move \(quoted(trip))`; nothing was changed"
        case let .changeRefused(server, reason):
            return "remote: \(server) refused a change: \(reason); nothing was changed"
        case let .tripDeleted(server, reason):
            return "remote: \(server): \(reason); this device keeps its copy; nothing was changed"
        case let .tripLocked(server, holder, seconds):
            return "remote: \(server): the trip's lock is held by \(holder ?? "another session") and was not released within \(seconds) s; "
                + "nothing was changed; run `trip sync` again later"
        case let .foreignSchema(server, reason):
            return "remote: \(server): \(reason); nothing was changed"
        case let .tripsNotSynced(trips, total, _):
            return "sync: \(trips.count) of \(total) trips not synced (\(trips.map { quoted($0) }.joined(separator: ", "))); the others were"
        case let .interrupted(server, trip, pushed, pulled, of, reason):
            let sent = pushed > 0 ? "pushed \(Money.group(String(pushed))), then " : ""
            return "remote: \(server): \(trip): \(sent)pulled \(Money.group(String(pulled))) of \(Money.group(String(of))) changes "
                + "before the connection failed (\(reason)); run `trip sync` again"
        }
    }

    /// The same error with `conninfo`'s passwords hidden wherever its text quotes them
    /// (`ConnectionRedaction.scrub`).
    func redacting(_ conninfo: String) -> SharingError {
        func r(_ text: String) -> String { ConnectionRedaction.scrub(text, conninfo: conninfo) }
        switch self {
        case let .badRemote(reason): return .badRemote(reason: r(reason))
        case let .weakTLS(server, mode): return .weakTLS(server: r(server), sslMode: r(mode))
        case let .unreachable(server, reason): return .unreachable(server: r(server), reason: r(reason))
        case let .authentication(server, reason): return .authentication(server: r(server), reason: r(reason))
        case let .permission(server, reason): return .permission(server: r(server), reason: r(reason))
        case let .server(state, message, server): return .server(sqlState: state, message: r(message), server: r(server))
        default: return self
        }
    }

    /// A connection that failed in the middle of a sync, after it had pushed and pulled this much,
    /// as `interrupted`; any other failure as it is.
    func cut(trip: String, pushed: Int, pulled: Int, of: Int) -> SharingError {
        switch self {
        case let .unreachable(server, reason):
            return .interrupted(server: server, trip: trip, pushed: pushed, pulled: pulled, of: of, reason: reason)
        // Connection exceptions (08) and operator intervention (57P: shutdown, a terminated backend).
        case let .server(state, message, server) where state.hasPrefix("08") || state.hasPrefix("57P"):
            return .interrupted(server: server, trip: trip, pushed: pushed, pulled: pulled, of: of, reason: message)
        default:
            return self
        }
    }

    /// A failure the server reported, typed when it is one of schema 8's refusals.
    static func reported(sqlState: String, message: String, server: String) -> SharingError {
        switch sqlState {
        case "TL001": .changeRefused(server: server, reason: message)
        case "TL002": .tripDeleted(server: server, reason: message)
        default: .server(sqlState: sqlState, message: message, server: server)
        }
    }

    /// Whether the failure is the connection's or the login's, so that `sync --all` stops instead
    /// of failing every remaining trip the same way.
    var endsTheSession: Bool {
        switch self {
        case .unreachable, .authentication, .libpqUnavailable, .interrupted, .schemaTooOld, .schemaTooNew: true
        default: false
        }
    }

    /// Sorts libpq's connection failure text into unreachable / authentication.
    static func classifyConnectionFailure(_ text: String, server: String) -> SharingError {
        let lower = text.lowercased()
        if lower.contains("password authentication failed") || lower.contains("no password supplied")
            || lower.contains("role \"") && lower.contains("does not exist")
            || lower.contains("permission denied") || lower.contains("no pg_hba.conf entry")
        {
            return .authentication(server: server, reason: text)
        }
        return .unreachable(server: server, reason: text)
    }
}
