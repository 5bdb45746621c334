import Foundation
import RecycleBin
import Scenery
import SceneryTool

extension ModuleCatalog {
    /// The recycle bin and the photo album over their demo data, and the package's
    /// `user-profile`, which adds both to Scenery's.
    public static var recycleBin: ModuleCatalog { recycleBin(bin: DemoRecycleBin.shared, album: DemoPhotoAlbum.shared) }

    /// The recycle bin module over `bin` (with the tool's `--fail bin` and `--latency bin=…`
    /// faults), the photo album module over `album`, and the package's `user-profile`.
    public static func recycleBin(bin: any RecycleBinService, album: any PhotoAlbumService) -> ModuleCatalog {
        ModuleCatalog(
            modules: [RecycleBinModule.descriptor, PhotoAlbumModule.descriptor], scenes: RecycleBinScenes.directory,
            services: [.recycleBin]
        ) { registry, services in
            let faulty = FaultyRecycleBin(base: bin, injector: services.faults)
            registry.register(RecycleBinModule.self) { parameters, context in
                try RecycleBinModule(parameters: parameters, context: context, bin: faulty)
            }
            registry.register(PhotoAlbumModule.self) { parameters, context in
                try PhotoAlbumModule(parameters: parameters, context: context, album: album)
            }
        }
    }
}
