// The whole module of "Writing a module", as the article shows it.
import Scenery

protocol NameService: Sendable {
    func name(of user: String) async throws -> String
}

actor GreetingModule: Module {
    struct Wave: Codable, Sendable { var user: String }
    static let wave = EventKind("greeting.wave", payload: Wave.self)

    static let descriptor = ModuleDescriptor(
        type: "GreetingModule",
        summary: "Greets a user by name.",
        parameters: [
            ParameterSpec("user", .userID, summary: "Who to greet."),
            .message(
                "format", default: "Hello, {name}!", arguments: [MessageArgumentSpec("name", .text, summary: "The user's name.")],
                summary: "The wording."),
        ],
        sends: [wave],
        performs: [wave])

    private let user: String
    private let format: LocalizedMessage
    private let names: any NameService
    private let context: ModuleContext
    private var state: LoadState<String> = .idle
    private var waved = false

    // Runs on its page's executor: calls to and from the scene are plain calls.
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

    init(parameters: ModuleParameters, context: ModuleContext, names: any NameService) throws {
        user = try parameters.string("user")
        format = try parameters.message("format")  // in the scene's language
        self.names = names
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {
        state = .loading
        state = .loaded(try await names.name(of: user))  // a throw shows the error block with retry
    }

    func render() -> ViewNode {
        state.render(id: "greeting") { name in
            .stack(
                "content",
                [
                    .text("text", format(["name": .text(name)]), role: .title),
                    .button("wave", title: waved ? "Waved" : "Wave", sends: Self.wave.descriptor(Wave(user: user))),
                ])
        }
    }

    // The scene may confirm or stop a wave; once it lets one through (throw if the
    // action fails: the route then says so and the host never receives the event):
    func perform(_ event: Event) async throws {
        guard (try? Self.wave.payload(of: event)) != nil else { return }
        waved = true
        await context.setNeedsRender()
    }
}
