import Foundation
import ProfileDemoDomain
import Scenery
import SceneryLive

/// Someone's guestbook, live and paged: signed-in visitors sign it (1 to 280 characters),
/// its owner deletes messages (owner-only: the router refuses anyone else first).
///
/// ```json
/// { "id": "guestbook", "type": "GuestbookModule", "params": { "owner": "$user" } }
/// ```
public actor GuestbookModule: Module {
    public struct Signing: Codable, Sendable, Hashable { public var text: String }
    public struct Deletion: Codable, Sendable, Hashable {
        public var message: Int64
        public var author: String
    }

    public static let sign = EventKind("guestbook.sign", payload: Signing.self)
    public static let delete = EventKind("guestbook.delete", payload: Deletion.self)

    public static let descriptor = ModuleDescriptor(
        type: "GuestbookModule",
        summary: "Someone's guestbook: visitors sign it, its owner deletes messages.",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose guestbook."),
            ParameterSpec("pageSize", .int, default: 5, summary: "Messages a page."),
            ParameterSpec("prompt", .string, default: "Sign the guestbook", summary: "The form's label."),
        ],
        sends: [sign, delete], performs: [sign, delete], ownerOnlyActions: [delete.name: "owner"])

    private let owner: String
    private let prompt: String
    private let book: any GuestbookService
    private let context: ModuleContext
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    private let live: LiveQuery<GuestbookModule, GuestbookChange>
    private var list: PagedList<GuestbookMessage>
    private var typed = ""
    private var problem: String?

    public init(parameters: ModuleParameters, context: ModuleContext, book: some GuestbookService) throws {
        owner = try parameters.string("owner")
        prompt = try parameters.string("prompt")
        list = PagedList(pageSize: try parameters.int("pageSize"))
        self.book = book
        self.context = context
        live = LiveQuery(book, context: context) { module, _ in
            try await module.run(module.list.reload())
            await module.context.setNeedsRender()
        }
    }

    public func load(_ request: LoadRequest) async throws {
        guard let fetch = list.begin(request) else { return }
        if fetch.showsIndicator { await context.setNeedsRender() }
        try await run(fetch)
    }

    private func run(_ fetch: PagedList<GuestbookMessage>.Fetch) async throws {
        do {
            let page = try await book.messages(in: owner, page: PageRequest(offset: fetch.offset, limit: fetch.limit))
            list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
        } catch {
            list.fail(fetch)
            throw error
        }
    }

    public func appear() async { await live.follow([.book(owner)], for: self) }
    public func disappear() async { live.stop() }

    public func perform(_ event: Event) async throws {
        guard let viewer = context.viewer else { return }
        if let signing = try? Self.sign.payload(of: event) {
            let text = signing.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if case .form(let form) = form().kind, let wrong = form.problems(in: ["text": text]).fields["text"] {
                (typed, problem) = (signing.text, wrong)
                return await context.setNeedsRender()
            }
            await save(keeping: signing.text) { [book, owner] in try await book.sign(owner, as: viewer, text: text) }
        } else if let deletion = try? Self.delete.payload(of: event) {
            await save(keeping: "") { [book, owner] in try await book.delete(deletion.message, from: owner, by: viewer) }
        }
    }

    /// Writes once, then shows the book as stored; a failure keeps what was typed and says why.
    private func save(keeping text: String, _ write: @Sendable () async throws -> Void) async {
        await live.write(.book(owner), for: self) {
            do {
                try await write()
                (typed, problem) = ("", nil)
                try await run(list.reload())
            } catch {
                (typed, problem) = (text, "Couldn't save: \(SceneryError.messageForViewers(of: error))")
            }
            await context.setNeedsRender()
        }
    }

    private func form() -> ViewNode {
        let field = TextField(
            name: "text", label: prompt, value: typed, maximumLength: 280, rules: [.required("Write a message first."), .length(1...280)],
            error: problem)
        return .form("sign", submit: .init(title: "Sign", sends: Self.sign.name), [.textField("sign.text", field)])
    }

    public func inspectableState() -> [String: JSONValue] { list.inspectableState.merging(live.inspectableState) { list, _ in list } }

    public func render() -> ViewNode {
        let isOwner = context.viewer == owner
        let messages = list.state.render(id: "messages", loadingMessage: "Opening the guestbook…", emptyMessage: "No messages yet.") { _ in
            let section = list.section(id: "all", header: "Guestbook") { message in
                var cells: [ViewNode] = [.text("m.\(message.id).text", "\(message.author): \(message.text)", role: .body)]
                if isOwner {
                    let deletion = Self.delete.descriptor(Deletion(message: message.id, author: message.author))
                    cells.append(.button("m.\(message.id).delete", title: "Delete", sends: deletion))
                }
                return .stack("m.\(message.id)", axis: .horizontal, cells)
            }
            let more = list.moreButton(title: "Older messages", module: context.id)
            return .stack("content", [.list("list", sections: [section])] + (more.map { [$0] } ?? []))
        }
        let notice = live.staleNotice.map { [ViewNode.text("notice", $0, role: .caption)] } ?? []
        return .stack("guestbook", [messages] + notice + (context.viewer == nil || isOwner ? [] : [form()]))
    }
}
