import Foundation
import Scenery

/// Shows on standard error which modules are still loading, once loading takes longer
/// than 200 ms — and only when standard error is a terminal, so scripted output stays clean.
enum LoadingIndicator {
    static let delay: Duration = .milliseconds(200)

    /// Starts a scene, showing progress while it loads.
    static func start(_ scene: SceneInstance) async {
        guard Output.errorIsTerminal else {
            await scene.start()
            return
        }
        let indicator = Task {
            try await Task.sleep(for: delay)
            var shown = false
            while !Task.isCancelled {
                let loading = await scene.loadingModules
                if !loading.isEmpty {
                    var names: [String] = []
                    for id in loading { names.append("\(id) (\(await scene.moduleType(of: id) ?? "?"))") }
                    let text = TerminalText.sanitized("Loading " + names.joined(separator: ", ") + " …")
                    Output.status("\r\u{1B}[2K" + text)
                    shown = true
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            if shown { Output.status("\r\u{1B}[2K") }
        }
        await scene.start()
        indicator.cancel()
        _ = await indicator.result
        Output.status("\r\u{1B}[2K")
    }
}
