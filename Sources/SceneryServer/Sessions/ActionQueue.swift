import Scenery

/// What a page asked the scene to do — controls activated, a trace — run one at a time in the
/// order the page sent them, and the action running now.
///
/// Events run apart from the socket, so that a confirmation's answer can arrive while an
/// event waits for it. A task runs them only while some wait: ``add(_:)`` says when one must
/// start, and ``next()`` returning `nil` ends it. An event counts as running from the moment
/// it leaves the queue: a copy of its action that arrives before it runs finds it running.
///
/// ```swift
/// var actions = ActionQueue(capacity: 32)
/// if actions.add(.control(node: "blogs/blog.26.like", action: key, values: nil)) == .startsRunner {
///     Task { while let event = actions.next() { await run(event) } }
/// }
/// ```
struct ActionQueue {
    /// One thing the page asked.
    enum Event: Equatable {
        /// A control activated, with the page's key for the action and a form's text.
        case control(node: NodeID, action: ActionKey?, values: [String: String]?)
        /// The page's recent events: answered after the events it sent before.
        case trace

        /// The action's key, for a control activated under one.
        var action: ActionKey? {
            if case .control(_, let action, _) = self { action } else { nil }
        }
    }

    /// What became of an event added.
    enum Added: Equatable {
        /// It waits behind others; the task running them will reach it.
        case queued
        /// It waits, and no task runs events: start one.
        case startsRunner
        /// The queue holds ``capacity`` events: it was not added.
        case full
    }

    private var waiting: [Event] = []
    private var isRunning = false
    /// The key of the action running now, if it has one.
    private(set) var running: ActionKey?
    /// The most events that wait at once.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func add(_ event: Event) -> Added {
        guard waiting.count < capacity else { return .full }
        waiting.append(event)
        guard !isRunning else { return .queued }
        isRunning = true
        return .startsRunner
    }

    /// The next event to run (it is running from now on); `nil` when none waits, which ends
    /// the running task's turn.
    mutating func next() -> Event? {
        guard !waiting.isEmpty else {
            isRunning = false
            running = nil
            return nil
        }
        let event = waiting.removeFirst()
        running = event.action
        return event
    }

    /// The event running now is done.
    mutating func finishRunning() {
        running = nil
    }

    /// Whether `action` is running or waits.
    func contains(_ action: ActionKey) -> Bool {
        running == action || waiting.contains { $0.action == action }
    }

    /// Drops every waiting event (the page ended).
    mutating func removeAll() {
        waiting = []
    }
}
