// The whole scenery tool for the board app (the catalog beside this file), serve included.
import SceneryServeTool
import SceneryTool

await SceneryTool.main(catalog: .board, adding: [.serve])
