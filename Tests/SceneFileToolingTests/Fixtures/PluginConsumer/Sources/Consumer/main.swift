// Uses what the Scenery build plugin generated from Scenes/: the build fails if a scene is invalid.
print(BundledScene.allCases.map(\.rawValue).joined(separator: ","))
