// The whole scenery tool with the recycle bin (the catalog beside this file), serve included.
import ProfileDemoTool
import SceneryServeTool
import SceneryTool

await SceneryTool.main(catalog: .profile + .recycleBin, adding: [.serve])
