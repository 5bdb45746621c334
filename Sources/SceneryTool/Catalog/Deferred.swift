import Scenery

/// A value made the first time someone asks for it, once, whichever thread asks.
///
/// A catalog's parts are deferred so that a command pays only for what it uses:
/// `scenery --version` builds no module descriptor and lists no scene folder, and `run`
/// looks up no folder of pictures (`BENCHMARKS.md`, "Cold start").
struct Deferred<Value: Sendable>: Sendable {
    private enum State {
        case pending(@Sendable () -> Value)
        case made(Value)
    }

    private let state: Locked<State>

    /// A value `make` makes when it is first asked for.
    init(_ make: @escaping @Sendable () -> Value) {
        state = Locked(.pending(make))
    }

    /// The value, made now if no one asked for it before.
    var value: Value {
        state.withLock { state in
            switch state {
            case .made(let value):
                return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}
