// The layers below the runtime, re-exported: `import Scenery` gives an app what it gave
// before the core was split (`Message`, `MessageLocale`, `PluralRules`, … from SceneryText).
@_exported import SceneryText
