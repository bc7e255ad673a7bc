/// Which server a shared trip lives on: the identity `trip remote init` gave it, and the server
/// as the user named it when the trip learnt it (`user@host:port/db`, for messages).
public struct ServerIdentity: Sendable, Equatable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
