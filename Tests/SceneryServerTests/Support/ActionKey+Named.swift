import Scenery

extension ActionKey {
    /// A key a test writes out, so a test can send the same action twice and find its answer
    /// by name. A key the protocol would refuse stops the test where it is written.
    static func named(_ text: String) -> ActionKey {
        do {
            return try ActionKey(validating: text)
        } catch {
            preconditionFailure("\(text.debugDescription) is no action key: \(error)")
        }
    }
}
