/// What a body must look like before its parser even starts.
enum BodyKind {
    case json
    case xml

    /// Throws `captivePortal` for an HTML page (by `Content-Type: text/html` or by an opening
    /// `<!doctype html` / `<html`), `malformedBody` for an empty body. A 200 with HTML where
    /// data was expected is what Wi-Fi login pages and bot walls send.
    func check(_ response: HTTPResponse) throws(FetchError) {
        let url = Redaction.mask(url: response.url)
        if let type = response.headers["content-type"]?.lowercased(), type.hasPrefix("text/html") {
            throw .captivePortal(url: url)
        }
        var start = response.body.startIndex
        if response.body.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < response.body.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(response.body[start]) { start += 1 }
        guard start < response.body.endIndex else { throw .malformedBody(url: url, reason: "empty body") }
        let head = String(decoding: response.body[start..<min(start + 64, response.body.endIndex)], as: UTF8.self).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { throw .captivePortal(url: url) }
        switch self {
        case .json where response.body[start] != UInt8(ascii: "{"):
            if response.body[start] == UInt8(ascii: "<") { throw .captivePortal(url: url) }
            throw .malformedBody(url: url, reason: "expected a JSON object")
        case .xml where response.body[start] != UInt8(ascii: "<"):
            throw .malformedBody(url: url, reason: "expected XML")
        default:
            return
        }
    }
}
