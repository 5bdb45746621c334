/// The one isolation domain a page runs in: its scene, the host's page object and every
/// module that names it share one serial executor, so a call between them is a plain call,
/// not a hop.
///
/// Actors that run on a page's isolation are isolated together: only one of them runs at a
/// time, and a call from one to another runs at once, in line. They still interleave at
/// each `await` that leaves the page (a store's I/O, a confirmation), exactly as one actor
/// does. By default the page's executor is that of an actor of its own, so Swift schedules
/// the page as it schedules any actor: on its shared pool, at the priority of the work
/// waiting, running a page in line when a thread can take it. A host that runs its pages on
/// the main actor (a UIKit app) says so with ``init(sharing:)``.
///
/// ``SceneRegistry/assemble(_:for:host:on:)`` makes a scene on one; each module gets it
/// through its ``ModuleContext`` and runs on it by naming it:
///
/// ```swift
/// actor GreetingModule: Module {
///     private let context: ModuleContext
///     nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
///     // …
/// }
/// ```
///
/// A module that does not name it is an actor of its own, as before: correct, one hop
/// further from its page. Work that burns CPU for long does not belong on a page; run it
/// off the page (`@concurrent` or a detached task) and await its result.
public final class PageIsolation: Sendable {
    private let anchor: any Actor

    /// The page's executor, for an actor to run on the page:
    /// `nonisolated var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }`.
    ///
    /// Read once, when the page is made: Swift asks an actor for its executor each time a
    /// job comes onto it, so every module on every page asks again at each change. The
    /// anchor it belongs to lives as long as the page.
    public let unownedExecutor: UnownedSerialExecutor

    /// A page of its own.
    public convenience init() {
        self.init(sharing: PageAnchor())
    }

    /// A page that runs on `actor`'s executor: `MainActor.shared` for a host that shows its
    /// pages on the main thread, or an actor of a test that counts what crosses onto the page.
    public init(sharing actor: any Actor) {
        anchor = actor
        unownedExecutor = actor.unownedExecutor
    }

    /// Stops the program, naming the caller, unless it runs on this page (a check for a
    /// debug build: code that must not run off its page).
    public func preconditionIsolated(file: StaticString = #fileID, line: UInt = #line) {
        anchor.preconditionIsolated("Expected to run on the page's isolation.", file: file, line: line)
    }
}

/// The actor whose executor a page runs on when it shares no other's.
private actor PageAnchor {}
