/// Every failure of the sharing commands, as one line naming the server or the input at fault.
/// No message ever contains a password: servers are named by `RemoteName.display`, and libpq's
/// own messages never echo one.
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
    case tripAlreadyShared(String)
    case noSharedTrip(String)
    /// Several shared trips of that name are visible: each with its owner.
    case ambiguousSharedTrip(String, owners: [String])
    case conflictNotFound(String)

    public var exitCode: Int32 {
        switch self {
        case .noRemote, .badRemote, .weakTLS: 64
        case .tripNotShared, .tripAlreadyShared, .noSharedTrip, .ambiguousSharedTrip, .conflictNotFound: 65
        case .authentication, .permission: 77
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
            return "trip \"\(name)\" is not shared; run `trip share \(name)` first"
        case let .tripAlreadyShared(name):
            return "trip \"\(name)\" is already shared; `trip sync` sends its changes"
        case let .noSharedTrip(name):
            return "join: no shared trip \"\(name)\" visible to this role; ask its owner for `trip share \(name) --with ROLE`"
        case let .ambiguousSharedTrip(name, owners):
            return "join: several shared trips are named \"\(name)\" (owners: \(owners.joined(separator: ", "))); name one as OWNER/\(name)"
        case let .conflictNotFound(id):
            return "id: no open conflict \(id); `trip conflicts` lists them"
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
