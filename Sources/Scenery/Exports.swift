// The layers below the runtime, re-exported: `import Scenery` gives an app what it gave
// before the core was split (`LocalizedMessage`, `MessageLocale`, … from SceneryText;
// `ViewNode`, `Event`, `JSONValue`, … from SceneryViewTree; `Diagnostic` and
// `SourcePosition` from ScenerySceneFiles; `ViewTreeDocument` from SceneryRendering).
@_exported import SceneryRendering
@_exported import ScenerySceneFiles
@_exported import SceneryText
@_exported import SceneryViewTree
