/// The version of the Scenery package (semantic versioning), as `scenery --version` prints it.
public let sceneryVersion = "0.2.0"
