extension NewPackage {
    /// Names an app's targets must not take, compared as SwiftPM compares them (ignoring
    /// case): Scenery's own targets, the modules of the packages Scenery depends on (SwiftPM
    /// refuses two modules of one name in a build), and the toolchain's modules.
    static func isReserved(_ name: String) -> Bool {
        reservedNames.contains(name.lowercased())
    }

    /// The reserved names, lower-cased.
    static let reservedNames: Set<String> = Set((sceneryTargets + dependencyModules + toolchainModules).map { $0.lowercased() })

    /// Scenery's own targets (not its tests): a test keeps the list equal to `Package.swift`.
    static let sceneryTargets = [
        "ColdStartBaseline", "CSQLite", "ProfileDemo", "ProfileDemoBlogs", "ProfileDemoDomain", "ProfileDemoDrafts",
        "ProfileDemoScenes", "ProfileDemoStore", "ProfileDemoStorePostgres", "ProfileDemoTool", "ProfileDemoToolPostgres",
        "ProfileDemoUserInfo", "ProfileDemoUserList", "Scenery", "SceneryBench", "SceneryCommand", "SceneryExperiments",
        "SceneryFaults", "SceneryLive", "SceneryPageProtocol", "SceneryRemote", "SceneryRenderCommand", "SceneryServeCommand",
        "SceneryServer", "SceneryServerTesting", "SceneryServeTool", "ScenerySiteStore", "ScenerySiteStorePostgres",
        "SceneryRendering", "ScenerySceneFiles", "SceneryTesting", "SceneryText", "SceneryTool", "SceneryViewTree", "SceneryURLSession",
        "SceneryValidateCommand", "SceneryValidationPlugin",
        "SceneryValidator",
    ]

    /// The modules of Scenery's dependencies (a test keeps the list up to date with every
    /// target their manifests declare).
    static let dependencyModules = [
        "_AtomicsShims", "_CAsyncSequenceValidationSupport", "_CertificateInternals", "_ConnectionPoolModule", "_ConnectionPoolTestUtils",
        "_CryptoExtras", "_CWASI", "_NIOBase64", "_NIOConcurrency", "_NIODataStructures", "_NIOFileSystem",
        "_NIOFileSystemFoundationCompat", "_NumericsShims", "_RopeModule", "_TestSupport", "Algorithms", "ArgumentParser",
        "ArgumentParserTestHelpers", "ArgumentParserToolInfo", "AsyncAlgorithms", "AsyncAlgorithms_XCTest", "AsyncHTTPClient",
        "AsyncSequenceValidation", "AsyncStreaming", "Atomics", "BasicContainers", "BitCollections", "CAsyncHTTPClient", "CCompressZlib",
        "CCryptoBoringSSL", "CCryptoBoringSSLShims", "CNIOAtomics", "CNIOBoringSSL", "CNIOBoringSSLShims", "CNIODarwin", "CNIOExtrasZlib",
        "CNIOFreeBSD", "CNIOLinux", "CNIOLLHTTP", "CNIOOpenBSD", "CNIOPosix", "CNIOSHA1", "CNIOWASI", "CNIOWindows", "Collections",
        "color", "ComplexModule", "CompressNIO", "ConcurrencyHelpers", "Configuration", "ConfigurationTesting",
        "ConfigurationTestingInternal", "ContainersPreview", "CoreMetrics", "Crypto", "CryptoBoringWrapper", "CSystem", "DequeModule",
        "HashTreeCollections", "HeapModule", "HTTPServerWithQuiescingDemo", "HTTPTypes", "HTTPTypesFoundation", "Hummingbird",
        "HummingbirdBenchmarks", "HummingbirdCore", "HummingbirdHTTP2", "HummingbirdRouter", "HummingbirdTesting", "HummingbirdTLS",
        "HummingbirdWebSocket", "HummingbirdWSClient", "HummingbirdWSCompression", "HummingbirdWSTesting", "InMemoryLogging",
        "InMemoryTracing", "Instrumentation", "InstrumentationBaggage", "InternalCollectionsUtilities", "Logging", "math", "Metrics",
        "MetricsTestKit", "NIO", "NIOAsyncAwaitDemo", "NIOCertificateHelpers", "NIOCertificateReloading", "NIOChatClient", "NIOChatServer",
        "NIOConcurrencyHelpers", "NIOCore", "NIOEchoClient", "NIOEchoServer", "NIOEmbedded", "NIOExtras", "NIOExtrasPerformanceTester",
        "NIOFileSystem", "NIOFoundationCompat", "NIOFoundationEssentialsCompat", "NIOFS", "NIOFSFoundationCompat", "NIOHPACK", "NIOHTTP1",
        "NIOHTTP1Client", "NIOHTTP1Server", "NIOHTTP2", "NIOHTTP2PerformanceTester", "NIOHTTP2Server", "NIOHTTPCompression",
        "NIOHTTPResponsiveness", "NIOHTTPTypes", "NIOHTTPTypesHTTP1", "NIOHTTPTypesHTTP2", "NIOMulticastChat", "NIONFS3",
        "NIOPerformanceTester", "NIOPosix", "NIOResumableUpload", "NIOResumableUploadDemo", "NIOSOCKS", "NIOSOCKSClient", "NIOSSL",
        "NIOSSLHTTP1Client", "NIOSSLPerformanceTester", "NIOTCPEchoClient", "NIOTCPEchoServer", "NIOTestUtils", "NIOTLS", "NIOTLSServer",
        "NIOTransportServices", "NIOTSEchoClient", "NIOTSHTTPClient", "NIOTSHTTPServer", "NIOUDPEchoClient", "NIOUDPEchoServer",
        "NIOWebSocket", "NIOWebSocketClient", "NIOWebSocketServer", "NIOWritePartialPCAPDemo", "NIOWritePCAPDemo", "Numerics",
        "OrderedCollections", "PerformanceTest", "PostgresNIO", "Prometheus", "RawStructuredFieldValues", "RealModule", "repeat", "roll",
        "ServiceContextModule", "ServiceContextModuleCompatibility", "ServiceLifecycle", "ServiceLifecycleTestKit", "SortedCollections",
        "StructuredFieldValues", "SwiftASN1", "SystemPackage", "Tracing", "TrailingElementsModule", "UnixSignals", "WSClient",
        "WSCompression", "WSCore", "X509",
    ]

    /// The modules that come with the Swift toolchain.
    static let toolchainModules = [
        "Swift", "_Concurrency", "_StringProcessing", "Cxx", "CxxStdlib", "Darwin", "Dispatch", "Distributed", "Foundation",
        "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Glibc", "Musl",
        "Observation", "RegexBuilder", "SwiftOnoneSupport", "Synchronization", "Testing", "WinSDK", "XCTest",
    ]

    /// Swift's keywords, and the names that mean something of their own after a type
    /// (`Self`, `Type`, `Protocol`): a module named so cannot be imported or used.
    static let keywords: Set<String> = [
        "Any", "Protocol", "Self", "Type", "_", "actor", "any", "as", "associatedtype", "async", "await", "borrowing", "break",
        "case", "catch", "class", "consume", "consuming", "continue", "default", "defer", "deinit", "do", "else", "enum",
        "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout",
        "internal", "is", "let", "nil", "nonisolated", "open", "operator", "precedencegroup", "private", "protocol",
        "public", "repeat", "rethrows", "return", "self", "some", "static", "struct", "subscript", "super", "switch",
        "throw", "throws", "true", "try", "typealias", "var", "where", "while",
    ]
}
