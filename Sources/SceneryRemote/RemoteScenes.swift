import Foundation
import Scenery

/// Scenes delivered without a release: newer versions of an app's scene files, fetched
/// from a server over HTTP(S), checked, cached, and layered over the scenes the app ships.
///
/// ```swift
/// var registry = SceneRegistry()                       // the app's module types…
/// registry.register(BlogModule.self) { … }
/// registry.addScenes(sources: bundledScenes)           // …and the scenes it ships with
///
/// let scenes = RemoteScenes(
///     server: URL(string: "https://example.com/scenes/")!, registry: registry,
///     transport: URLSessionSceneTransport(),            // SceneryURLSession
///     cache: SceneCache(directory: cachesDirectory.appending(path: "scenes")))
/// await scenes.loadCache()                             // what it had last time, offline too
/// Task { for await event in await scenes.events() { report(event) } }
/// await scenes.refresh()                               // or refreshIfDue() when the app comes forward
/// let scene = try await scenes.registry.assemble("user-profile", for: context, host: host)
/// ```
///
/// The server publishes `index.json` (`{ "scenes": [ { "id": "user-profile", "etag": "\"…\"" } ] }`)
/// and `<id>.json` for each scene (`scenery serve` does). A refresh reads the index, then
/// fetches with `If-None-Match` only the scenes whose tag changed. A new version becomes
/// active only if `SceneCatalog` accepts it (compatible with this app, valid with its
/// module types and every scene that extends it); otherwise the version the app had stays
/// and an ``Event`` says why, with file, line and column. A scene the index no longer lists
/// is withdrawn: the bundled version comes back. A server that is down, slow,
/// redirects elsewhere, answers something other than JSON, sends more than
/// ``Limits/maximumBytes`` or invalid UTF-8, gives a diagnostic and changes nothing.
public actor RemoteScenes {
    /// Bounds on what a server may send.
    public struct Limits: Sendable {
        /// The largest body accepted (the index or one scene file).
        public var maximumBytes: Int
        /// How long one request may take, from start to last byte.
        public var timeout: Duration

        public init(maximumBytes: Int = 1 << 20, timeout: Duration = .seconds(10)) {
            self.maximumBytes = maximumBytes
            self.timeout = timeout
        }
    }

    /// What a refresh or a cache load did, as it happens.
    public enum Event: Sendable {
        /// A version became active (possibly without modules the app lacks; see the offer's diagnostics).
        case activated(SceneOffer)
        /// A version was not used; the previous one stays.
        case rejected(SceneOffer)
        /// The server (or the cache) could not be read; the scenes stay as they were.
        case unavailable(Diagnostic)
        /// The server no longer lists a scene: its bundled version is back (or, if the app
        /// ships none, the scene is gone), and the cached copy is removed.
        case withdrawn(String)
    }

    /// The server's base URL (ending in `/`): `index.json` and `<id>.json` are read below it.
    public let server: URL
    public let transport: any SceneTransport
    public let cache: SceneCache?
    public let limits: Limits
    /// The shortest time between two refreshes through ``refreshIfDue()``.
    public let refreshInterval: Duration

    /// The active scenes, layered: bundled, then fetched.
    public private(set) var catalog: SceneCatalog
    /// The tag of each scene's active fetched version.
    private var activeTags: [String: String] = [:]
    private var lastRefresh: ContinuousClock.Instant?
    private var subscribers: [UUID: AsyncStream<Event>.Continuation] = [:]

    /// Scenes from a server over a registry's (bundled) scenes.
    public init(
        server: URL, registry: SceneRegistry, transport: any SceneTransport, cache: SceneCache? = nil, limits: Limits = Limits(),
        refreshInterval: Duration = .seconds(600)
    ) {
        self.server = server.absoluteString.hasSuffix("/") ? server : URL(string: server.absoluteString + "/") ?? server
        self.transport = transport
        self.cache = cache
        self.limits = limits
        self.refreshInterval = refreshInterval
        catalog = SceneCatalog(registry: registry)
    }

    /// The active scenes with the app's module types, ready to assemble.
    public var registry: SceneRegistry { catalog.registry }

    /// Events from now on, until the stream is dropped.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func send(_ event: Event) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// Offers the cached versions (the last good ones fetched before), checked again
    /// against this app: what an app starts with, online or not.
    @discardableResult
    public func loadCache() -> [Diagnostic] {
        guard let cache else { return [] }
        let (entries, problems) = cache.entries()
        var diagnostics = problems.map { Diagnostic(.warning, $0, file: cache.directory.path, location: nil) }
        for diagnostic in diagnostics { send(.unavailable(diagnostic)) }
        for entry in entries {
            let offer = catalog.offer(SceneDocument(id: entry.id, source: entry.source, origin: entry.origin, tag: entry.etag))
            if offer.isActive { activeTags[entry.id] = entry.etag }
            diagnostics += offer.diagnostics
            send(offer.isActive ? .activated(offer) : .rejected(offer))
        }
        return diagnostics
    }

    /// Refreshes now: reads the index and fetches the scenes whose tag changed. Returns
    /// every diagnostic (also sent as ``Event``s).
    @discardableResult
    public func refresh() async -> [Diagnostic] {
        lastRefresh = .now
        let fetcher = SceneFetcher(transport: transport, limits: limits)
        let indexURL = server.appending(path: "index.json")
        let entries: [SceneIndex.Entry]
        do throws(SceneTransportFailure) {
            guard case .fresh(let data, _, _) = try await fetcher.get(indexURL) else { return [] }
            entries = try SceneIndex(from: data, url: indexURL).scenes
        } catch {
            return [unavailable(indexURL, error.description)]
        }
        var diagnostics: [Diagnostic] = []
        // Scenes the server no longer lists are withdrawn: the bundled version comes back.
        let listed = Set(entries.map(\.id))
        for id in activeTags.keys.sorted() where !listed.contains(id) {
            let offer = catalog.withdraw(id, origin: indexURL.absoluteString)
            diagnostics += offer.diagnostics
            guard offer.outcome != .rejected else {
                send(.rejected(offer))
                continue
            }
            activeTags[id] = nil
            cache?.remove(id)
            send(.withdrawn(id))
        }
        for entry in entries {
            guard SceneID.isValid(entry.id) else {
                diagnostics.append(unavailable(indexURL, "the index names the scene '\(entry.id)', which is not a valid scene id"))
                continue
            }
            if let tag = entry.etag, activeTags[entry.id] == tag { continue }  // current already
            let url = server.appending(path: "\(entry.id).json")
            let cached = cache?.entry(for: entry.id)
            let result: SceneFetcher.Result
            do throws(SceneTransportFailure) {
                result = try await fetcher.get(url, etag: cached?.etag, lastModified: cached?.lastModified)
            } catch {
                diagnostics.append(unavailable(url, error.description))
                continue
            }
            guard case .fresh(let data, let etag, let lastModified) = result else { continue }
            guard let text = String(validating: data, as: UTF8.self) else {
                diagnostics.append(unavailable(url, "\(url.absoluteString) sent text that is not valid UTF-8"))
                continue
            }
            let offer = catalog.offer(SceneDocument(id: entry.id, source: text, origin: url.absoluteString, tag: etag))
            diagnostics += offer.diagnostics
            if offer.isActive {
                activeTags[entry.id] = etag
                do {
                    try cache?.store(SceneCache.Entry(id: entry.id, source: text, origin: url.absoluteString, etag: etag, lastModified: lastModified))
                } catch {
                    diagnostics.append(
                        unavailable(
                            URL(filePath: cache?.directory.path ?? ""),
                            "the scene could not be cached (\(error.localizedDescription)); it is active until the app ends"))
                }
            }
            send(offer.isActive ? .activated(offer) : .rejected(offer))
        }
        return diagnostics
    }

    /// Refreshes if the last refresh is at least ``refreshInterval`` ago (or there was none);
    /// returns `nil` when it was not due. What it rejected also reaches ``events()``, so an
    /// app that watches those may ignore the result.
    @discardableResult
    public func refreshIfDue() async -> [Diagnostic]? {
        if let lastRefresh, ContinuousClock.now - lastRefresh < refreshInterval { return nil }
        return await refresh()
    }

    private func unavailable(_ url: URL, _ message: String) -> Diagnostic {
        let diagnostic = Diagnostic(.error, "\(message); the scenes stay as they were.", file: url.absoluteString, location: nil)
        send(.unavailable(diagnostic))
        return diagnostic
    }

}
