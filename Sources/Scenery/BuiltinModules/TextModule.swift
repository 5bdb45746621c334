/// A block of text written in the scene file: a heading, an announcement, a hint.
///
/// Scene files use it to change wording on a screen without a release:
///
/// ```json
/// { "id": "notice", "type": "TextModule", "params": { "title": "Welcome", "body": "Hello, $name." } }
/// ```
///
/// Registered in every ``SceneRegistry`` unless it is created with `builtIns: false`.
package actor TextModule: Module {
    package static let descriptor = ModuleDescriptor(
        type: "TextModule",
        summary: "A title and body text written in the scene file.",
        parameters: [
            ParameterSpec("title", .string, default: "", summary: "The heading; empty for none."),
            ParameterSpec("body", .string, default: "", summary: "The text under the heading; empty for none."),
        ])

    private let title: String
    private let body: String

    private let page: PageIsolation
    /// The module runs on its page's executor (see ``PageIsolation``).
    package nonisolated var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }

    /// Creates the module from its parameters, on the page of `context` (a page of its own
    /// when `nil`).
    package init(parameters: ModuleParameters, context: ModuleContext? = nil) throws {
        page = context?.page ?? PageIsolation()
        title = try parameters.string("title")
        body = try parameters.string("body")
    }

    package func load(_ request: LoadRequest) async throws {}

    package func render() -> ViewNode {
        .stack(
            "text",
            [
                title.isEmpty ? nil : ViewNode.text("title", title, role: .title),
                body.isEmpty ? nil : ViewNode.text("body", body),
            ].compactMap { $0 })
    }
}
