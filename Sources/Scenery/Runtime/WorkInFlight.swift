/// The module work a scene runs under deadlines (loads, actions), so that leaving the scene
/// cancels all of it at once.
///
/// ```swift
/// var work = WorkInFlight()
/// let id = work.reserve()
/// work.add(race, as: id)   // … and when it ends: work.remove(id)
/// work.cancelAll()         // the scene was left
/// ```
struct WorkInFlight {
    private var races: [Int: LoadRace] = [:]
    private var nextID = 0

    /// A number no other work of the scene has, for work about to start.
    mutating func reserve() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Keeps `race` under `id` until it ends.
    mutating func add(_ race: LoadRace, as id: Int) {
        races[id] = race
    }

    /// Work `id` ended.
    mutating func remove(_ id: Int) {
        races[id] = nil
    }

    /// Cancels every piece of work still running, and forgets it.
    mutating func cancelAll() {
        for race in races.values { race.cancel() }
        races.removeAll()
    }

    /// How many pieces of work run.
    var count: Int { races.count }
}
