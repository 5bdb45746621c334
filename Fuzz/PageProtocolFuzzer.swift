// libFuzzer target for the page protocol's decoders (`SceneryPageProtocol`): what a page
// sends the server (`ClientMessage`) and what a server sends a client (`ServerMessage`).
// Built by Fuzz/run.sh against the Scenery and SceneryPageProtocol libraries it builds
// with the fuzzers' flags. Every input must be handled without a crash, a hang or an
// unbounded allocation; a message that decodes must encode to text that decodes to the
// same message (what one end writes, the other reads back unchanged).

import Foundation
import Scenery
import SceneryPageProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let message = try PageProtocol.ClientMessage(jsonText: text)
        let again = try PageProtocol.ClientMessage(jsonText: message.jsonText())
        precondition(again == message, "a client message changed on its way back: \(message) became \(again)")
    } catch let refusal as PageProtocol.ClientMessage.Refusal {
        precondition(refusal.message.utf8.count <= 200, "a refusal too long for a close reason")
    } catch {}
    if let message = try? PageProtocol.ServerMessage(jsonText: text) {
        do {
            let again = try PageProtocol.ServerMessage(jsonText: message.text)
            precondition(again == message, "a server message changed on its way back: \(message.type)")
        } catch {
            preconditionFailure("a server message did not read back: \(message.type): \(error)")
        }
    }
    _ = try? PageProtocol.sequence(fromQuery: Substring(text))
    return 0
}
