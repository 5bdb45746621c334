// `scenery-serve`: the `serve` command of the scenery tool, and the tool on PostgreSQL
// databases, a separate executable so that `swift run scenery run …` compiles neither a web
// server nor a PostgreSQL client. `scenery serve ARGS` runs `scenery-serve ARGS`; `scenery
// COMMAND --database postgres://…` runs `scenery-serve --tool COMMAND --database postgres://…`.
import ProfileDemoTool
import ProfileDemoToolPostgres
import SceneryServeTool
import SceneryTool

await SceneryTool.serverMain(catalog: .profile, adding: [.serve], databases: [.profilePostgres])
