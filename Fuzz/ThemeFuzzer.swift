// libFuzzer target for theme token files (DTCG): the reader, alias resolution, the contrast
// check and the stylesheet made from a theme. Built by Fuzz/run.sh against the Scenery
// library it builds with the fuzzers' flags. Every input must be read without a crash, a
// hang (alias chains and cycles are resolved in time linear in the file) or an unbounded
// allocation.

import Scenery

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var registry = SceneRegistry()
    let problems = registry.addTheme(source: source, file: "Scenes/fuzz.tokens.json")
    for problem in problems + registry.themeDiagnostics { _ = problem.description }
    _ = registry.themeStylesheet
    return 0
}
