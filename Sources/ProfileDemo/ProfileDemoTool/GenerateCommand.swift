import ArgumentParser
import ProfileDemoDomain
import ProfileDemoStore
import SceneryTool

/// `scenery data generate`: generated blogs by one user, to try long lists.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Add generated blogs by one user, to try long lists (scenery data reset removes them).")

    @Option(help: "Whose blogs.")
    var user: String

    @Option(help: "How many blogs to add (1 to 1000000).")
    var blogs: Int

    @OptionGroup var database: DatabaseOptions

    mutating func validate() throws {
        guard (1...1_000_000).contains(blogs) else { throw ValidationError("--blogs must be from 1 to 1000000, not \(blogs).") }
    }

    func run() async throws {
        try await reportingFailures {
            let store = try await database.openStore(requiresWriting: true)
            let ids = try await profileDatabase(in: store).addGeneratedBlogs(count: blogs, author: UserID(user))
            Output.line("Added \(blogs) blogs by user \(user) (ids \(ids.lowerBound)–\(ids.upperBound)) to \(database.description.quoted).")
        }
    }

    /// The profile database behind the tool's store.
    private func profileDatabase(in store: any ToolStore) throws -> any ProfileDatabase {
        try ToolServices(store: store).store(as: ProfileToolStore.self).database
    }
}
