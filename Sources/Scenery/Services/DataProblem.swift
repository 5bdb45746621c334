/// One problem in a data file: where (a JSON path such as `blogs[3].author`) and what.
public struct DataProblem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value; empty for the whole file.
    public var path: String
    /// What is wrong and how to fix it.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
