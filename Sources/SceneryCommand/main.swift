// The `scenery` command: the tool of the SceneryTool library with Scenery's own catalog
// (the profile modules and the bundled scenes). An outside package builds its own in the
// same two lines, with its modules added: SceneryTool.main(catalog: .profile + .myModules).
import SceneryTool

await SceneryTool.main(catalog: .profile)
