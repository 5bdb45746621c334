import Scenery
import Synchronization

/// What a test service does when a module loads.
enum LoadBehavior: Sendable {
    case succeed
    case fail(String)
    /// Waits for the gate (cooperatively cancellable through the task).
    case waitFor(Gate)
    /// Waits for the gate, then fails: a slow backend that gives up.
    case waitThenFail(Gate, String)
    /// Never returns and ignores cancellation: a badly behaved backend.
    case hang
    /// Meets the other modules at a rendezvous before succeeding.
    case meet(Rendezvous)
}

struct TestServiceError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The backend the test modules share: scripted per module id, with a journal.
final class TestService: Sendable {
    private let behaviors: Locked<[String: LoadBehavior]>
    private let names: [String: String]
    let journal = Journal()

    init(behaviors: [String: LoadBehavior] = [:], names: [String: String] = ["1": "Alice", "2": "Bob"]) {
        self.behaviors = Locked(behaviors)
        self.names = names
    }

    func setBehavior(_ behavior: LoadBehavior, for key: String) {
        behaviors.withLock { $0[key] = behavior }
    }

    /// Throws when writes are set to fail (the behavior for "write").
    func write(_ entry: String) throws {
        if case .fail(let message) = behaviors.withLock({ $0["write"] }) { throw TestServiceError(message: message) }
        journal.record(entry)
    }

    func fetch(_ key: String) async throws {
        journal.record("load \(key)")
        switch behaviors.withLock({ $0[key] }) ?? .succeed {
        case .succeed: break
        case .fail(let message): throw TestServiceError(message: message)
        case .waitFor(let gate):
            await gate.wait()
            try Task.checkCancellation()
        case .waitThenFail(let gate, let message):
            await gate.wait()
            throw TestServiceError(message: message)
        case .hang:
            await Gate.neverOpened.wait()
        case .meet(let rendezvous):
            await rendezvous.arriveAndWait()
        }
        journal.record("loaded \(key)")
    }

    func name(of user: String) -> String { names[user] ?? "User \(user)" }
}

/// Shows a user's name and a follow/unfollow button. Follow is handled at once;
/// unfollow bubbles so the scene can confirm it, and happens in `perform`.
actor ProfileTestModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "ProfileModule",
        summary: "A user's name with a follow button.",
        parameters: [
            ParameterSpec("user", .userID, summary: "Whose profile."),
            ParameterSpec("greeting", .string, default: "Profile of", summary: "Wording before the name."),
        ],
        events: ["user.unfollow", "user.follow", "user.open"],
        defaultActions: ["user.unfollow", "user.follow", "user.open"])

    let user: String
    let greeting: String
    let service: TestService
    let context: ModuleContext
    var name: String?
    var isFollowing = true

    init(parameters: ModuleParameters, context: ModuleContext, service: TestService) throws {
        user = try parameters.string("user")
        greeting = try parameters.string("greeting")
        self.service = service
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {
        try await service.fetch(context.id.rawValue)
        name = service.name(of: user)
    }

    func render() -> ViewNode {
        guard let name else { return .loading("loading") }
        let button: ViewNode =
            isFollowing
            ? .button("follow", title: "Unfollow", sends: EventDescriptor("user.unfollow", payload: ["user": .string(user), "name": .string(name)]))
            : .button("follow", title: "Follow", sends: EventDescriptor("user.follow", payload: ["user": .string(user)]))
        return .stack("profile", [.text("name", "\(greeting) \(name)", role: .title), button])
    }

    func handle(_ event: Event) async -> EventDisposition {
        switch event.name {
        case "user.follow":
            isFollowing = true
            service.journal.record("follow \(user)")
            await context.setNeedsRender()
            return .handled
        case "avatar.tap":
            return .transform(event.renamed("user.open", adding: ["user": .string(user)]))
        default:
            return .pass
        }
    }

    func perform(_ event: Event) async throws {
        guard event.name == "user.unfollow" else { return }
        try service.write("unfollow \(user)")
        isFollowing = false
        await context.setNeedsRender()
    }

    func appear() async { service.journal.record("appear \(context.id)") }
    func disappear() async { service.journal.record("disappear \(context.id)") }
}

/// A paged list of numbered items with a like button per row (handled optimistically).
actor ItemsTestModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "ItemsModule",
        summary: "Numbered items, paged.",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose items."),
            ParameterSpec("pageSize", .int, default: 3, summary: "Items per page."),
            ParameterSpec("total", .int, default: 5, summary: "Items in all."),
        ],
        events: ["item.open"],
        defaultActions: ["item.open"],
        countsRowImpressions: true)

    let pageSize: Int
    let total: Int
    let service: TestService
    let context: ModuleContext
    var state: LoadState<[Int]> = .idle
    var liked: Set<Int> = []

    init(parameters: ModuleParameters, context: ModuleContext, service: TestService) throws {
        pageSize = try parameters.int("pageSize")
        total = try parameters.int("total")
        self.service = service
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {
        let shown = request == .nextPage ? (state.value ?? []) : []
        state = shown.isEmpty ? .loading : .paging(shown)
        do {
            try await service.fetch(context.id.rawValue)
        } catch {
            state = shown.isEmpty ? .failed("\(error)") : .loaded(shown)
            throw error
        }
        let next = Array(shown.count..<min(total, shown.count + pageSize))
        let all = shown + next
        state = all.isEmpty ? .empty : .loaded(all)
    }

    func render() -> ViewNode {
        state.render(id: "items", emptyMessage: "No items.") { items in
            .list(
                "list",
                sections: [
                    .init(
                        id: "all", header: "Items",
                        rows: items.map { item in
                            .stack(
                                "row.\(item)", axis: .horizontal,
                                [
                                    .text("row.\(item).title", "Item \(item)"),
                                    .button(
                                        "row.\(item).like", title: liked.contains(item) ? "Liked" : "Like",
                                        sends: EventDescriptor("item.like", payload: ["item": .int(item)])),
                                    .button("row.\(item).open", title: "Open", sends: EventDescriptor("item.open", payload: ["item": .int(item)])),
                                ])
                        })
                ])
        }
    }

    func handle(_ event: Event) async -> EventDisposition {
        guard event.name == "item.like", let item = event.payload["item"]?.intValue else { return .pass }
        liked.insert(item)
        await context.setNeedsRender()
        return .handled
    }

    var phase: String { state.phase }
}

/// Private data that only its owner may see; refuses anyone else by itself.
actor SecretTestModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "SecretModule",
        summary: "The owner's secrets.",
        parameters: [ParameterSpec("owner", .userID, summary: "Whose secrets.")],
        events: ["secret.delete"],
        defaultActions: ["secret.delete"],
        ownerOnlyParameter: "owner")

    let owner: String
    let context: ModuleContext
    var loaded = false

    init(parameters: ModuleParameters, context: ModuleContext) throws {
        owner = try parameters.string("owner")
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {
        guard context.viewer == owner else { throw TestServiceError(message: "Secrets are private to their owner.") }
        loaded = true
    }

    func render() -> ViewNode {
        .button("delete", title: "Delete secret", sends: EventDescriptor("secret.delete"), style: .destructive)
    }
}

extension SceneRegistry {
    /// A registry with the test modules, backed by `service`.
    static func testing(_ service: TestService) -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(ProfileTestModule.self) { try ProfileTestModule(parameters: $0, context: $1, service: service) }
        registry.register(ItemsTestModule.self) { try ItemsTestModule(parameters: $0, context: $1, service: service) }
        registry.register(SecretTestModule.self) { try SecretTestModule(parameters: $0, context: $1) }
        return registry
    }

    /// A test registry with `scenes` added from source text.
    static func testing(_ service: TestService, scenes: [String: String]) -> SceneRegistry {
        var registry = testing(service)
        for (id, source) in scenes.sorted(by: { $0.key < $1.key }) { registry.addScene(id: id, source: source) }
        return registry
    }
}
