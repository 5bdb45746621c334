/// The updates a scene made for its host and has not handed over yet, in sequence order,
/// and how far the host has been told.
///
/// A scene numbers its updates 1, 2, 3, … (``SceneUpdate/sequence``); an update joins the
/// outbox with the next number and leaves it oldest first, through the scene's one delivery
/// loop. A baseline includes every update made so far: ``takeBaseline()`` drops what is queued
/// and counts it as delivered.
struct SceneOutbox: Sendable {
    /// The number of the last update made (0 before the first).
    private(set) var sequence = 0
    /// The number of the last update handed to the host.
    private(set) var delivered = 0
    private var queued: [SceneUpdate] = []
    /// Whether the delivery loop is handing updates to the host (an update the host's own
    /// `sceneDidUpdate` makes is handed over by that loop, next).
    var isHandingOver = false

    /// Gives `update` the next number and queues it; returns the number.
    mutating func enqueue(_ update: SceneUpdate) -> Int {
        sequence += 1
        var update = update
        update.sequence = sequence
        queued.append(update)
        return sequence
    }

    /// The oldest queued update, taken out; `nil` when none waits.
    mutating func next() -> SceneUpdate? {
        queued.isEmpty ? nil : queued.removeFirst()
    }

    /// The host was told of every update up to `sequence`.
    mutating func markDelivered(through sequence: Int) {
        delivered = max(delivered, sequence)
    }

    /// Whether the host was told of update `sequence` (and all before it).
    func hasDelivered(through sequence: Int) -> Bool {
        delivered >= sequence
    }

    /// The host's copy now includes every update made: nothing queued is handed over.
    mutating func takeBaseline() {
        queued.removeAll()
        delivered = sequence
    }
}
