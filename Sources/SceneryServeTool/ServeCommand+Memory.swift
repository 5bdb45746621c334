import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ServeCommand {
    /// How many malloc arenas a server keeps (glibc on Linux), unless `MALLOC_ARENA_MAX` says.
    static let mallocArenas: Int32 = 2

    /// Keeps glibc's malloc to ``mallocArenas`` arenas. By default glibc gives threads that
    /// allocate at once arenas of their own, up to eight per core, and returns little of
    /// them: in the soak (BENCHMARKS.md §15, 8 minutes, 300 pages, every fault kind) a
    /// server's memory grew 49% over its level after warm-up with the default and 18% with two
    /// arenas. An operator's `MALLOC_ARENA_MAX` is left to glibc. Returns whether the limit
    /// was set.
    @discardableResult
    static func limitMallocArenas() -> Bool {
        #if canImport(Glibc)
            guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
                let symbol = dlsym(nil, "mallopt")  // glibc's mallopt; malloc.h is not in the Glibc module
            else { return false }
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            let arenaMaximum: Int32 = -8  // M_ARENA_MAX
            return mallopt(arenaMaximum, mallocArenas) == 1
        #else
            return false
        #endif
    }
}
