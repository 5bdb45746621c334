import Foundation
import RecycleBin
import Scenery
import SceneryTool

extension ModuleCatalog {
    /// The recycle bin module over the demo bin, and the `user-profile-bin` scene.
    public static var recycleBin: ModuleCatalog { recycleBin(bin: DemoRecycleBin.shared) }

    /// The recycle bin module over `bin` (with the tool's `--fail bin` and `--latency bin=…`
    /// faults), and the `user-profile-bin` scene.
    public static func recycleBin(bin: any RecycleBinService) -> ModuleCatalog {
        ModuleCatalog(modules: [RecycleBinModule.descriptor], scenes: RecycleBinScenes.directory, services: [.recycleBin]) { registry, services in
            let faulty = FaultyRecycleBin(base: bin, injector: services.faults)
            registry.register(RecycleBinModule.self) { parameters, context in
                try RecycleBinModule(parameters: parameters, context: context, bin: faulty)
            }
        }
    }
}
