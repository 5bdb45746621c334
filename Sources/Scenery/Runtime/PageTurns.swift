/// The jobs waiting to run on a page and the turns that run them: the bookkeeping of
/// ``PageExecutor``, as a value so that its rules can be tested alone.
///
/// Jobs run in the order they came, one turn at a time. A turn is asked for (at a job's
/// priority) when a job comes to a page with no turn running; while a turn asked for has not
/// started, a job of higher priority asks for another at its priority, so the page's work is
/// never left waiting behind a low-priority turn. A turn that starts while another runs, or
/// finds nothing to do, ends at once.
struct PageTurns<Job> {
    private var jobs: [Job] = []
    private var priorities: [UInt8] = []
    private var next = 0
    /// The thread running the page's jobs now, if a turn is running.
    private(set) var drainingThread: UInt?
    /// The highest priority of the turns asked for and not started.
    private var asked: UInt8?

    /// Whether no job is waiting.
    var isEmpty: Bool { next == jobs.count }

    /// Adds `job`; returns the priority to ask for a turn at, or `nil` when a turn running
    /// or asked for will run it.
    mutating func append(_ job: Job, priority: UInt8) -> UInt8? {
        let priority = Self.effective(priority)
        jobs.append(job)
        priorities.append(priority)
        guard drainingThread == nil, asked.map({ priority > $0 }) ?? true else { return nil }
        asked = priority
        return priority
    }

    /// Starts a turn on `thread`: `false` when another turn is running or no job waits.
    mutating func startTurn(on thread: UInt) -> Bool {
        guard drainingThread == nil, !isEmpty else { return false }
        drainingThread = thread
        asked = nil
        return true
    }

    /// The next job of the running turn, oldest first.
    mutating func nextJob() -> Job? {
        guard !isEmpty else { return nil }
        defer { next += 1 }
        return jobs[next]
    }

    /// Ends the running turn; returns the priority to ask for another turn at when jobs are
    /// left (the oldest one's), `nil` when none is.
    mutating func endTurn() -> UInt8? {
        drainingThread = nil
        if isEmpty {
            jobs.removeAll(keepingCapacity: jobs.count <= 64)
            priorities.removeAll(keepingCapacity: priorities.count <= 64)
            next = 0
            return nil
        }
        if next > 64 {
            jobs.removeFirst(next)
            priorities.removeFirst(next)
            next = 0
        }
        let priority = priorities[next...].max() ?? priorities[next]
        if asked.map({ priority > $0 }) ?? true { asked = priority } else { return nil }
        return priority
    }

    /// A job of no stated priority counts as a medium one.
    private static func effective(_ priority: UInt8) -> UInt8 { priority == 0 ? 21 : priority }
}
