// `scenery-serve`: the `serve` command of the scenery tool, a separate executable so that
// `swift run scenery run …` never compiles the web server. `scenery serve ARGS` runs
// `scenery-serve ARGS`.
import SceneryServeTool
import SceneryTool

await SceneryTool.main(catalog: .profile, arguments: ["serve"] + CommandLine.arguments.dropFirst(), adding: [.serve])
