// The layers below the runtime, re-exported: `import Scenery` gives an app what it gave
// before the core was split (`Message`, `MessageLocale`, `PluralRules`, … from SceneryText;
// `ViewNode`, `ViewTreeDiff`, `Event`, `JSONValue`, … from SceneryViewTree).
@_exported import SceneryText
@_exported import SceneryViewTree
