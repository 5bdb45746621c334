import ProfileDemoDomain
import Scenery

/// Parameters for a module: its descriptor's defaults, overridden by `values`.
func parameters(for descriptor: ModuleDescriptor, _ values: [String: JSONValue]) -> ModuleParameters {
    var all: [String: JSONValue] = [:]
    for spec in descriptor.parameters { if let value = spec.defaultValue { all[spec.name] = value } }
    all.merge(values) { _, new in new }
    return ModuleParameters(all)
}
