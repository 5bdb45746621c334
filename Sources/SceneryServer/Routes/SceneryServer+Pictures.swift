import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension SceneryServer {
    /// The media type of each picture kind the server serves, by file extension.
    static let pictureTypes = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml"]

    /// The largest picture the server reads, in bytes: a person's picture, not a film.
    static let largestPicture = 2 * 1024 * 1024

    /// `GET /pictures/NAME`: the first of ``Configuration/pictureFolders`` that holds NAME
    /// answers with it. A name is one file name of letters, digits, `.`, `-` and `_` with a
    /// picture's extension, so no request reaches outside the folders (a link is not
    /// followed); anything else, or a file that is not there, is the site's 404 page.
    func picture(named name: String) throws -> Response {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        guard allowed, !name.hasPrefix("."), let type = Self.pictureTypes[(name as NSString).pathExtension.lowercased()] else {
            throw HTTPError(.notFound)
        }
        for folder in configuration.pictureFolders {
            let file = folder.appending(path: name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int, size <= Self.largestPicture,
                let data = FileManager.default.contents(atPath: file.path)
            else { continue }
            return Response(
                status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=3600"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        throw HTTPError(.notFound)
    }
}
