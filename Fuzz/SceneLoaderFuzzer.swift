// libFuzzer target for the scene-file loader and validator, and the theme and message
// catalog readers beside it. Built by Fuzz/run.sh against the Scenery library it builds with
// the fuzzers' flags (one package name, so the parser's `package` API is reachable).
// Every input must be handled without a crash, a hang or an unbounded allocation.

import Scenery

/// A registry with module types shaped like the real ones (owner-only, allowed values,
/// ranges, events), so validation walks every path.
let fuzzRegistry: SceneRegistry = {
    var registry = SceneRegistry()
    registry.declare(
        ModuleDescriptor(
            type: "UserInfoModule", summary: "", parameters: [ParameterSpec("user", .userID), ParameterSpec("emptyName", .string, default: "Anonymous")],
            events: ["user.follow", "user.unfollow", "user.open"]))
    registry.declare(
        ModuleDescriptor(
            type: "BlogModule", summary: "", parameters: [ParameterSpec("author", .userID), ParameterSpec("pageSize", .int, default: 10, range: 1...100)],
            events: ["blog.open"]))
    registry.declare(
        ModuleDescriptor(
            type: "DraftModule", summary: "", parameters: [ParameterSpec("owner", .userID)], events: ["draft.open"], ownerOnlyParameter: "owner"))
    registry.declare(
        ModuleDescriptor(
            type: "UserListModule", summary: "",
            parameters: [
                ParameterSpec("user", .userID), ParameterSpec("list", .string, default: "following", allowedValues: ["followers", "following", "friends"]),
            ],
            events: ["user.follow", "user.unfollow"]))
    registry.addScene(id: "blog-detail", source: #"{ "parameters": { "blog": "int" }, "modules": [] }"#)
    registry.addScene(
        id: "base", source: #"{ "parameters": { "user": "userID" }, "modules": [ { "id": "info", "type": "UserInfoModule", "params": { "user": "$user" } } ] }"#
    )
    return registry
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The file on its own, then as one of several scenes that may extend and navigate to each other.
    var registry = fuzzRegistry
    var parser = SceneFileParser(file: "fuzz.json", id: "fuzz")
    _ = parser.parse(bytes)
    registry.addScene(id: "fuzz", source: String(decoding: bytes, as: UTF8.self))
    registry.addScene(id: "child", source: #"{ "extends": "fuzz", "modules": [ { "id": "extra", "type": "BlogModule", "params": { "author": "$user" } } ] }"#)
    let diagnostics = registry.allDiagnostics
    for diagnostic in diagnostics { _ = diagnostic.description }
    // Everything a host might do with a loaded file must be safe too.
    if let locator = try? JSONLocator(bytes: bytes) { _ = locator.location(of: "modules[0].params.user") }
    // The same bytes as a theme file (DTCG tokens) and as a message catalog beside the scenes.
    var beside = fuzzRegistry
    beside.addTheme(source: String(decoding: bytes, as: UTF8.self), file: "Scenes/fuzz.tokens.json")
    beside.addMessageCatalog(source: String(decoding: bytes, as: UTF8.self), file: "Scenes/fuzz.messages.json")
    for diagnostic in beside.themeDiagnostics + beside.messageCatalogDiagnostics { _ = diagnostic.description }
    _ = beside.themeStylesheet
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = PseudoLocale.transformed(text)
        if let message = try? Message(text) {
            _ = message.format(["count": 3, "name": "x"], in: MessageLocale(PseudoLocale.identifier))
            _ = message.format(["count": 3, "name": "x"], in: MessageLocale("ar"))
        }
        _ = try? Condition(parsing: text, allowsEventFields: true)
        _ = TerminalText.wrap(TerminalText.sanitized(text), width: 20)
        _ = HTMLRenderer.escape(text)
        _ = Wording.format(text, 1, "x")
    }
    return 0
}
