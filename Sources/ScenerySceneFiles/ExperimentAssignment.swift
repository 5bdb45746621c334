import SceneryViewTree

/// The arm of one experiment a scene was assembled with, and what an exposure to it is.
///
/// A ``SceneInstance`` lists its assignments in `SceneInstance.assignments`. The arm comes
/// from a stable hash of the experiment's name and the unit (the viewer's id, or the
/// anonymous id the host gave in ``SceneContext/anonymousID``), so the same person gets the
/// same arm on every page and every server, with no state kept:
///
/// ```swift
/// let scene = try await registry.assemble("user-profile", for: context, host: host)
/// for assignment in await scene.assignments {
///     print(assignment.experiment, assignment.arm)     // friends-layout compact
/// }
/// ```
package struct ExperimentAssignment: Sendable, Hashable, Codable {
    /// The experiment's name.
    package var experiment: String
    /// The arm the unit falls in.
    package var arm: String
    /// Who was assigned: the viewer's id, or the host's anonymous id.
    package var unit: String
    /// Whether the arm was chosen by an override (``SceneContext/armOverrides``) rather than
    /// by the hash; reports leave such assignments out.
    package var isOverridden: Bool
    /// The modules whose first impression is the exposure: those that differ between the
    /// experiment's arms for this context. Empty when the arms differ only in arrangement
    /// or rules: then the first impression of any module is.
    package var exposingModules: Set<ModuleID>
    /// Whether the arms show this context anything different at all (an arm may change a
    /// module this variant does not have); when they do not, nothing exposes it.
    package var armsDiffer: Bool

    /// Creates an assignment.
    package init(
        experiment: String, arm: String, unit: String, isOverridden: Bool = false, exposingModules: Set<ModuleID> = [], armsDiffer: Bool = true
    ) {
        self.experiment = experiment
        self.arm = arm
        self.unit = unit
        self.isOverridden = isOverridden
        self.exposingModules = exposingModules
        self.armsDiffer = armsDiffer
    }

    /// Whether an impression of `module` exposes the unit to the experiment.
    package func isExposed(by module: ModuleID) -> Bool {
        armsDiffer && (exposingModules.isEmpty || exposingModules.contains(module))
    }

    /// A unit's stable place in [0, 1) for an experiment: 64-bit FNV-1a of the experiment's
    /// name, a zero byte and the unit, mixed (so that similar ids spread), scaled to 53 bits.
    /// The same on every machine and in every version of Swift, unlike `Hasher`.
    package static func bucket(experiment: String, unit: String) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for byte in experiment.utf8 { add(byte) }
        add(0)
        for byte in unit.utf8 { add(byte) }
        // The finaliser of SplitMix64: FNV's low bits vary little for ids that differ in
        // their last character only.
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Double(hash >> 11) / Double(UInt64(1) << 53)
    }
}
