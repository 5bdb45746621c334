// libFuzzer target for `scenery data import`: decoding a data set, checking it, importing
// it into SQLite, exporting it again, and locating problems in the file for messages.
// Built by Fuzz/run.sh against the ProfileDemoDomain, ProfileDemoStore and Scenery sources.
// Every input must be handled without a crash, a hang or an unbounded allocation; an
// input that imports must export to a data set that decodes to the same records.

import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    // What the command does with a file it cannot import: point at every problem.
    if let locator = try? JSONLocator(bytes: Array(bytes)) {
        _ = locator.numbersOutsideIntegers
        _ = locator.location(of: "users[0].id")
    }
    guard let dataSet = try? ProfileDataSet.decode(from: bytes) else { return 0 }
    _ = dataSet.problems.map(\.description)
    guard let store = try? SQLiteProfileStore.inMemory(seedDemoData: false) else { fatalError("no in-memory database") }
    guard (try? store.importData(dataSet)) != nil else { return 0 }
    // Imported: the export must round-trip, streamed and whole alike.
    guard let exported = try? store.exportData() else { fatalError("an imported data set does not export") }
    var streamed = ""
    do { try store.exportJSON { streamed += $0 } } catch { fatalError("the streamed export failed: \(error)") }
    guard streamed == String(decoding: exported.encoded(), as: UTF8.self) else { fatalError("streamed and whole exports differ") }
    guard let again = try? ProfileDataSet.decode(from: Data(streamed.utf8)), again == exported else {
        fatalError("an export does not decode to the same data set")
    }
    return 0
}
