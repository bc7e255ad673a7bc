/// Masks credentials in URLs before they appear in any message.
///
/// Pure string work (no libcurl), so it also runs for URLs that were refused before loading it.
enum Redaction {
    /// Query parameter names whose values are replaced by `***` (compared case-insensitively),
    /// in addition to any name ending in `key`, `token` or containing `secret`/`password`.
    static let sensitiveNames: Set<String> = ["apikey", "api_key", "key", "access_key", "token", "app_id"]

    /// The URL with `user:password@` replaced by `***@` and sensitive query values by `***`.
    static func mask(url: String) -> String {
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
