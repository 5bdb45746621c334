extension PageProtocol {
    /// A ``ServerMessage/patch(sequence:operations:)`` encoded once for every page it goes
    /// to, then numbered for each: the pages that receive the same operations share their
    /// JSON, and a page's own work is writing its sequence number into the text.
    ///
    /// The wire format is the message's own (keys sorted): `"operations"` comes before
    /// `"sequence"`, so the shared part is the head of the text and the number its tail. A
    /// client of any version reads it as before.
    ///
    /// ```swift
    /// let shared = PageProtocol.EncodedPatch([.replace("blogs/blog.26.likes", html: "<p>2</p>")])
    /// shared.text(sequence: 7)  // {"operations":[{…}],"sequence":7,"type":"patch"}
    /// ```
    package struct EncodedPatch: Sendable, Hashable {
        /// How many operations the patch holds.
        package let operationCount: Int
        /// `{"operations":[…],"sequence":` — everything before the page's number.
        private let head: String

        /// The operations, encoded once.
        package init(_ operations: [DOMOperation]) {
            var head = #"{"operations":["#
            for (index, operation) in operations.enumerated() {
                if index > 0 { head += "," }
                operation.writeJSON(into: &head)
            }
            head += #"],"sequence":"#
            self.head = head
            operationCount = operations.count
        }

        /// The message's text for the page whose message this is the `sequence`-th.
        package func text(sequence: Int) -> String {
            head + #"\#(sequence),"type":"patch"}"#
        }
    }
}
