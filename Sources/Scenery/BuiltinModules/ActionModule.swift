/// A single button written in the scene file; it emits `action.tap` with its `action`
/// name, for the scene's event rules to turn into navigation.
///
/// ```json
/// { "id": "help", "type": "ActionModule", "params": { "title": "Help", "action": "help" } }
/// ...
/// "events": [ { "on": "action.tap", "when": "event.action == 'help'", "navigate": { "scene": "help" } } ]
/// ```
///
/// Registered in every ``SceneRegistry`` unless it is created with `builtIns: false`.
package actor ActionModule: Module {
    package static let descriptor = ModuleDescriptor(
        type: "ActionModule",
        summary: "A button that emits action.tap with its action name.",
        parameters: [
            ParameterSpec("title", .string, summary: "What the button says."),
            ParameterSpec("action", .string, summary: "The name the event carries as event.action."),
        ],
        events: ["action.tap"])

    private let title: String
    private let action: String

    private let page: PageIsolation
    /// The module runs on its page's executor (see ``PageIsolation``).
    package nonisolated var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }

    /// Creates the module from its parameters, on the page of `context` (a page of its own
    /// when `nil`).
    package init(parameters: ModuleParameters, context: ModuleContext? = nil) throws {
        page = context?.page ?? PageIsolation()
        title = try parameters.string("title")
        action = try parameters.string("action")
    }

    package func load(_ request: LoadRequest) async throws {}

    package func render() -> ViewNode {
        .button("button", title: title, sends: EventDescriptor("action.tap", payload: ["action": .string(action)]), style: .primary)
    }
}
