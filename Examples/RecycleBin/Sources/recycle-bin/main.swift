import RecycleBin
import SceneryTool

await SceneryTool.main(catalog: .profile + .recycleBin)
