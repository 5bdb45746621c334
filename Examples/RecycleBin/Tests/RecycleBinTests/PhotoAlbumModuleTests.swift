import ProfileDemoDomain
import RecycleBin
import Scenery
import SceneryTesting
import Testing

/// The album alone, through the exhaustive harness: everyone sees it, only the owner is
/// offered Remove, and a removal from anyone else is refused before the module acts.
@Suite struct PhotoAlbumModuleTests {
    let hole = Photo(id: 31, caption: "The rabbit hole, from above")
    let tea = Photo(id: 32, caption: "Tea at six, as always")

    func harness(viewer: String?, album: any PhotoAlbumService) throws -> ModuleHarness<PhotoAlbumModule> {
        try ModuleHarness(PhotoAlbumModule.self, parameters: ["owner": "1"], viewer: viewer, id: "album") {
            try PhotoAlbumModule(parameters: $0, context: $1, album: album)
        }
    }

    @Test func theOwnerRemovesAPhotoAndItLeavesTheAlbum() async throws {
        let album = DemoPhotoAlbum(["1": [hole, tea]])
        let harness = try harness(viewer: "1", album: album)
        try await harness.load { tree in
            try RenderExpectation.shows("The rabbit hole, from above").verify(tree)
            try RenderExpectation.hasNode("photo.32.remove").verify(tree)
        }
        try await harness.tap("photo.31.remove") { tree in
            try RenderExpectation.hides("The rabbit hole, from above").verify(tree)
        }
        try await harness.receiveEvent("album.remove") { event in
            #expect(event.payload["photo"] == 31)
            #expect(event.payload["caption"] == "The rabbit hole, from above")
        }
        try await harness.receiveUpdate { tree in
            try RenderExpectation.hides("The rabbit hole, from above").verify(tree)
            try RenderExpectation.shows("Tea at six, as always").verify(tree)
        }
        try harness.finish()
        #expect(try await album.photos(of: "1") == [tea])
    }

    @Test(arguments: ["2", nil] as [String?])
    func anyoneElseSeesThePhotosWithoutRemove(viewer: String?) async throws {
        let harness = try harness(viewer: viewer, album: DemoPhotoAlbum(["1": [hole, tea]]))
        try await harness.load { tree in
            try RenderExpectation.shows("The rabbit hole, from above").verify(tree)
            try RenderExpectation.shows("Tea at six, as always").verify(tree)
            try RenderExpectation.lacksNode("photo.31.remove").verify(tree)
            try RenderExpectation.hides("Remove").verify(tree)
        }
        try harness.finish()
    }

    @Test(arguments: ["2", nil] as [String?])
    func aForgedRemovalFromAnyoneElseIsRefusedBeforeTheModuleActs(viewer: String?) async throws {
        let album = DemoPhotoAlbum(["1": [hole, tea]])
        let harness = try harness(viewer: viewer, album: album)
        try await harness.load { try RenderExpectation.shows("The rabbit hole, from above").verify($0) }
        let forged = PhotoAlbumModule.remove.event(.init(photo: 31, caption: "The rabbit hole, from above"), from: "photo.31.remove")
        try await harness.send(forged)
        try await harness.receiveEvent("album.remove")
        try await harness.receiveRefusal { #expect($0 == "only the user named by 'owner' may take this action") }
        try harness.finish()
        #expect(try await album.photos(of: "1") == [hole, tea], "nothing removed")
    }
}
