import TripCore
import TripLedger
import TripModel

/// What `trip sync` (and `share`, `join`) did for one trip.
public struct SyncResult: Sendable {
    public let trip: String
    public let home: Currency
    /// Changes the server did not have yet (a repeated push counts 0).
    public let pushed: Int
    /// Local changes sent (new or repeated).
    public let sent: Int
    public let pulled: Int
    /// Pulled changes per PostgreSQL role.
    public let pulledBy: [String: Int]
    public let rates: Int
    public let conflicts: Int
    /// The trip's net total in its home currency after the sync, and how it moved.
    public let total: Int64
    public let change: Int64
    public var grantedTo: [String] = []
}

/// `trip remote init`.
public struct SchemaInstall: Sendable {
    public let server: String
    public let role: String
    public let from: Int
    public let to: Int
}

/// `trip remote status`.
public struct ServerStatus {
    public struct Trip: Sendable {
        public let name: String
        public let owner: String
        public let unsent: Int
        public let lastSync: String?
        public let pulled: Int64
        /// The server's last sequence number (nil: not reachable).
        public let onServer: Int64?
    }

    public let server: String
    public let known: Int
    public var reachable = false
    public var role: String?
    public var schema: Int?
    public var problem: (any Error)?
    public var trips: [Trip] = []

    init(server: String, known: Int) {
        self.server = server
        self.known = known
    }
}
