/// Masks credentials in URLs before they appear in any message.
///
/// Pure string work (no libcurl), so it also runs for URLs that were refused before loading it.
/// Two layers: `mask(url:)` hides credentials by their place in a URL (user info, key-like
/// query parameters); `scrub(_:secrets:)` hides known secret values wherever they appear (a key
/// in a URL path, echoed in libcurl's error text, in a provider's message or a redirect target).
public enum Redaction {
    /// Shorter values are not treated as secrets: masking every "ab" would garble messages.
    public static let minimumSecretLength = 4

    /// Values of environment variables that hold credentials: names ending in `KEY`, `TOKEN`,
    /// `SECRET`, `PASSWORD` or `APP_ID` (case-insensitive), e.g. `TRIP_OPENERAPI_KEY`. A key a
    /// person passes this way (say, inside `TRIP_RATES_URL`) is then masked in every message.
    public static func secrets(inEnvironment environment: [String: String]) -> [String] {
        environment.compactMap { name, value in
            let upper = name.uppercased()
            let isSecret = ["KEY", "TOKEN", "SECRET", "PASSWORD", "APP_ID", "APPID"].contains { upper.hasSuffix($0) }
            return isSecret ? value : nil
        }
    }

    /// User name, password and sensitive query values of `url` (the ones `mask` hides), plus
    /// their percent-decoded forms, for scrubbing text that quotes them elsewhere.
    static func secrets(in url: String) -> [String] {
        var found: [String] = []
        guard let schemeEnd = url.firstRange(of: "://") else { return [] }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            found += authority[..<at].split(separator: ":", maxSplits: 1).map(String.init)
        }
        if let questionMark = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: questionMark)...].prefix { $0 != "#" }
            for pair in query.split(separator: "&") {
                guard let equals = pair.firstIndex(of: "="), isSensitive(String(pair[..<equals])) else { continue }
                found.append(String(pair[pair.index(after: equals)...]))
            }
        }
        return found + found.compactMap(percentDecoded)
    }

    /// `%XX` escapes decoded (`+` kept); nil when nothing changes or the result is not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Distinct secrets of usable length, longest first (so a secret containing another is
    /// replaced whole).
    static func usable(_ secrets: [String]) -> [String] {
        Set(secrets.filter { $0.count >= minimumSecretLength }).sorted {
            $0.count > $1.count || ($0.count == $1.count && $0 < $1)
        }
    }

    /// `text` with every occurrence of each secret replaced by `***`.
    public static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in usable(secrets) where result.contains(secret) {
            result = result.replacing(secret, with: "***")
        }
        return result
    }

    /// Query parameter names whose values are replaced by `***` (compared case-insensitively),
    /// in addition to any name ending in `key`, `token` or containing `secret`/`password`.
    static let sensitiveNames: Set<String> = ["apikey", "api_key", "key", "access_key", "token", "app_id"]

    /// The URL with `user:password@` replaced by `***@` and sensitive query values by `***`.
    public static func mask(url: String) -> String {
        var rest = Substring(url)
        var prefix = ""
        if let schemeEnd = rest.firstRange(of: "://") {
            prefix = String(rest[..<schemeEnd.upperBound])
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                prefix += "***@" + authority[authority.index(after: at)...]
            } else {
                prefix += authority
            }
            rest = rest[authorityEnd...]
        }
        guard let questionMark = rest.firstIndex(of: "?") else { return prefix + rest }
        let path = rest[..<questionMark]
        var query = rest[rest.index(after: questionMark)...]
        var fragment: Substring = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = query[hash...]
            query = query[..<hash]
        }
        let maskedQuery = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            return isSensitive(String(name)) ? name + "=***" : String(pair)
        }.joined(separator: "&")
        return prefix + path + "?" + maskedQuery + fragment
    }

    static func isSensitive(_ name: String) -> Bool {
        let lower = name.lowercased()
        return sensitiveNames.contains(lower) || lower.hasSuffix("key") || lower.hasSuffix("token")
            || lower.contains("secret") || lower.contains("password")
    }

    /// `host[:port]` of a URL without user info, for messages about connections.
    static func hostDescription(of url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return mask(url: url) }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd: Substring.Index = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority: Substring = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { return String(authority[authority.index(after: at)...]) }
        return String(authority)
    }
}
