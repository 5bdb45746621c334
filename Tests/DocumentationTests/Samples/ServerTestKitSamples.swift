import ProfileDemo
// The sample of "Testing" (Sources/SceneryTesting/SceneryTesting.docc/Testing.md) for the server's test
// kit, as a test that runs over both transports against the demo on in-memory SQLite.
// DocumentationSampleTests checks that the article's block stands here line for line.
import ProfileDemoDomain
import ProfileDemoScenes
import ProfileDemoStore
import Scenery
import SceneryServer
import SceneryServerTesting
import Testing

@Suite struct ServerTestKitSamples {
    let server: SceneryServer

    init() throws {
        let store = try SQLiteProfileStore.inMemory(seedDemoData: true)
        var registry = SceneRegistry()
        registry.registerProfileModules(ProfileServices(store))
        try registry.addBundledScenes()
        registry.defaultModuleTimeout = .seconds(120)  // a whole suite on a small machine
        let users = try store.allUsers().map { SignInUser(id: $0.id.rawValue, name: $0.name) }
        server = SceneryServer(registry: registry, users: users)
    }

    @Test(arguments: PageTestTransport.allCases)
    func aLikeReachesAnotherViewer(transport: PageTestTransport) async throws {
        try await server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7")
            let like = try await bob.tap("blogs/blog.26.like")
            let answered = try await bob.waitForAnswer(to: like)
            #expect(answered.text(of: "blogs/blog.26.like") == "Unlike")
            try await carol.waitUntil("Bob's like") { $0.text(of: "blogs/blog.26.likes") == "Likes: 1" }
        }
    }

    @Test func aLikeReachesAnotherViewersHTMLPage() async throws {
        try await server.test(.inProcess) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7", format: .html)
            try await bob.waitUntil("Alice's blogs") { $0.text(of: "blogs/blog.26.like") == "Like" }
            try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            try await carol.waitUntil("Bob's like") { $0.operations.contains { $0.html?.contains("Likes: 1") == true } }
        }
    }
}
