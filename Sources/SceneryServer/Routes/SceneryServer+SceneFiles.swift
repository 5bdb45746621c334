import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Scenery
import SceneryRemote

/// The scene files this server runs, published for apps that take newer scenes from it
/// (`RemoteScenes` in SceneryRemote): `GET /scenes/index.json` lists them with their tags,
/// `GET /scenes/<id>.json` is one file. Both carry an `ETag` and answer `If-None-Match`
/// with `304 Not Modified`. A reload (`scenery serve --watch`) publishes the new versions.
extension SceneryServer {
    func sceneFile(_ name: String, request: Request) -> Response {
        let registry = self.registry
        let body: String
        if name == "index" {
            let entries = registry.sceneIDs.compactMap { id in
                registry.publishableSource(of: id).map { SceneIndex.Entry(id: id, etag: Self.entityTag(of: $0)) }
            }
            body = SceneIndex(scenes: entries).jsonText
        } else if let source = registry.publishableSource(of: name) {
            body = source
        } else {
            return Response(
                status: .notFound, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: #"{ "error": "No scene \#(Self.jsonString(name).dropFirst().dropLast()) is published here." }"#)))
        }
        let tag = Self.entityTag(of: body)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache", .eTag: tag]
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag || $0 == "*" })
        {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A strong entity tag: the first 16 bytes of the text's SHA-256, quoted.
    static func entityTag(of text: String) -> String {
        "\"" + SHA256.hash(data: Data(text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
