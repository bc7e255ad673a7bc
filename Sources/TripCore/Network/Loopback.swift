/// Which hosts never leave this machine: the one rule behind plain http to a local rate server
/// (`URLPolicy`) and the TLS exemption of a local PostgreSQL (`RemoteServer`).
///
/// Only literal forms count: exactly `localhost`, a dotted-quad IPv4 address in 127.0.0.0/8
/// (four decimal octets, each 0–255), and `::1` (bare or in brackets). A name that merely starts
/// with `127.` (`127.evil.example`) is a DNS name like any other and can point anywhere.
public enum Loopback {
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy { $0 >= "0" && $0 <= "9" } && UInt8(octet) != nil
        }
    }
}
