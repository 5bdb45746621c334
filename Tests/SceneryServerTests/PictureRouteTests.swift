import Foundation
import HTTPTypes
import Hummingbird
import ProfileDemoStore
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// `GET /pictures/NAME`: the pictures an app ships, served from its folders and from nowhere
/// else.
@Suite struct PictureRouteTests {
    /// A folder with one picture and one file that is not a picture, beside a secret.
    static func folder() throws -> (pictures: URL, secret: URL) {
        let root = FileManager.default.temporaryDirectory.appending(path: "pictures-\(UUID().uuidString)")
        let pictures = root.appending(path: "pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(to: pictures.appending(path: "ada.svg"))
        try Data("not a picture".utf8).write(to: pictures.appending(path: "notes.txt"))
        let secret = root.appending(path: "secret.png")
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(at: pictures.appending(path: "link.png"), withDestinationURL: secret)
        return (pictures, secret)
    }

    @Test func aPictureOfTheFoldersIsServedWithItsType() async throws {
        let (pictures, _) = try Self.folder()
        let fixture = try ServerFixture { $0.pictureFolders = [pictures] }
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: "/pictures/ada.svg", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: response.body).hasPrefix("<svg"))
        }
    }

    @Test(arguments: ["notes.txt", "link.png", "..%2Fsecret.png", "%2E%2E%2Fsecret.png", "missing.svg", ".svg", "a b.svg"])
    func nothingOutsideThePicturesOfTheFoldersIsServed(name: String) async throws {
        let (pictures, _) = try Self.folder()
        let fixture = try ServerFixture { $0.pictureFolders = [pictures] }
        try await fixture.server.application().test(.router) { client in
            let response = try await client.execute(uri: "/pictures/\(name)", method: .get)
            #expect(response.status == .notFound, "\(name)")
            #expect(!String(buffer: response.body).contains("secret"))
        }
    }

    @Test func theDemosPeopleHaveTheirPicturesInThePackage() async throws {
        let folder = try #require(DemoData.pictures)
        let fixture = try ServerFixture { $0.pictureFolders = [folder] }
        let named = DemoData.dataSet.users.compactMap(\.avatarURL)
        #expect(named.count >= 4, "the demo's people have pictures")
        try await fixture.server.application().test(.router) { client in
            for path in named {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
            }
        }
    }
}
