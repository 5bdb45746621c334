extension RequestGuard {
    /// What the guard needs of a request's head.
    struct RequestHead: Equatable {
        var method: String
        var contentLength = 0
        var isMalformedLength = false
        var isChunked = false
        var upgrades = false
    }

    enum Verdict: Equatable {
        case incomplete
        /// The head ends at this index (just past its blank line).
        case complete(end: Int, RequestHead)
        case tooLarge
        case malformed(String)
    }

    /// What the bytes of a request's start say: whether its head is complete, and whether
    /// what has arrived of it is acceptable.
    static func check(_ bytes: [UInt8], maxBytes: Int) -> Verdict {
        let end = endOfHead(in: bytes)
        // Only the head is checked: a body that came in the same read may hold anything.
        let head = bytes[..<(end ?? bytes.endIndex)]
        let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
        // The request line: METHOD SP /target SP HTTP/x.y, nothing but visible characters.
        let requestLine = head[..<lineEnd]
        if requestLine.contains(where: { !($0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || (0x21...0x7E).contains($0)) }) {
            return .malformed("The request line holds a control character; send a well-formed HTTP/1.1 request.")
        }
        if let space = requestLine.firstIndex(of: UInt8(ascii: " ")), let first = requestLine[(space + 1)...].first,
            first != UInt8(ascii: "/")
        {
            return .malformed("The request target must be a path starting with '/'.")
        }
        // Headers: no control characters but tab, CR and LF.
        if head[lineEnd...].contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
            return .malformed("A request header holds a control character; send a well-formed HTTP/1.1 request.")
        }
        guard let end else { return bytes.count > maxBytes ? .tooLarge : .incomplete }
        return .complete(end: end, parse(head))
    }

    /// The method and the headers that say what follows the head.
    static func parse(_ head: ArraySlice<UInt8>) -> RequestHead {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        var request = RequestHead(method: lines.first.map { String($0.prefix { $0 != " " }) } ?? "")
        var lengths: Set<Substring> = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let value = line[line.index(after: colon)...].drop(while: blank).reversed().drop(while: blank).reversed()
                .map(String.init).joined()
            switch name {
            case "content-length": lengths.insert(Substring(value))
            case "transfer-encoding": request.isChunked = true
            // Only a WebSocket is ever upgraded; any other protocol (`h2c`) stays HTTP
            // and keeps its deadlines.
            case "upgrade":
                request.upgrades =
                    request.upgrades || value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
            default: break
            }
        }
        if lengths.count > 1 {
            request.isMalformedLength = true
        } else if let length = lengths.first {
            if let value = Int(length), value >= 0 { request.contentLength = value } else { request.isMalformedLength = true }
        }
        return request
    }

    /// The index just past the blank line that ends a head (CRLF CRLF, or LF LF).
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        var index = bytes.startIndex
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            if next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") { return next + 2 }
            index = next
        }
        return nil
    }
}
