// The `scenery` command: the tool of the SceneryTool library with Scenery's own catalog
// (the profile demo: its modules, the bundled scenes, its SQLite files). An outside package
// builds its own in the same lines, with its own catalog: SceneryTool.main(catalog: .myApp).
import ProfileDemoTool
import SceneryTool

await SceneryTool.main(catalog: .profile)
