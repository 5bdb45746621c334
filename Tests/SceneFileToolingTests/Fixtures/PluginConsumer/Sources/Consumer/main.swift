// Uses what the Scenery build plugin generated from its Scenes folder: the build fails if a scene is invalid.
print(BundledScene.allCases.map(\.rawValue).joined(separator: ","))
