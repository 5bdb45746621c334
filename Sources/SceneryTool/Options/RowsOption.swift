import ArgumentParser
import Scenery

/// `--rows`: show only a window of the scene's long lists, as a host that scrolls does.
struct RowsOption: ParsableArguments {
    @Option(
        name: .customLong("rows"),
        help: ArgumentHelp(
            "Show only these rows of long lists, counted from 0: START..<END or START...END, for every module, or MODULE:START..<END for one (for example blogs:100..<150).",
            valueName: "range"))
    var text: String?

    /// The module (`nil` for every module) and the rows asked for.
    var selection: (module: ModuleID?, window: RowWindow)? {
        text.flatMap(Self.parse)
    }

    func validate() throws {
        if let text, Self.parse(text) == nil {
            throw ValidationError(
                "--rows \(text.quoted) is not a range of rows; write START..<END or START...END with START ≤ END (for example 100..<150), optionally after a module id and a colon (blogs:100..<150)."
            )
        }
    }

    /// Sets the window on the module asked for, or on every module of the scene.
    func apply(to scene: SceneInstance) async throws {
        guard let (module, window) = selection else { return }
        if let module {
            guard scene.modules.contains(module) else {
                let known = scene.modules.map(\.rawValue).joined(separator: ", ")
                throw CommandFailure(
                    "'--rows' names module \(module.rawValue.quoted), which scene \(scene.sceneID.quoted) does not have (its modules: \(known)).", code: .usage)
            }
            await scene.setWindow(window, for: module)
        } else {
            for module in scene.modules { await scene.setWindow(window, for: module) }
        }
    }

    static func parse(_ text: String) -> (module: ModuleID?, window: RowWindow)? {
        var range = Substring(text)
        var module: ModuleID?
        if let colon = text.lastIndex(of: ":") {
            guard colon != text.startIndex else { return nil }
            module = ModuleID(String(text[..<colon]))
            range = text[text.index(after: colon)...]
        }
        let closed = range.contains("...")
        let parts = range.components(separatedBy: closed ? "..." : "..<")
        guard parts.count == 2, let start = Int(parts[0]), let end = Int(parts[1]), start >= 0, end >= start, end < 1_000_000_000 else { return nil }
        return (module, RowWindow(start: start, count: end - start + (closed ? 1 : 0)))
    }
}
