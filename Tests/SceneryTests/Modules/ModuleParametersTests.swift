import Testing

@testable import Scenery

/// Creating a module directly, as tests and previews do: defaults filled, values checked as
/// a scene file's are.
@Suite struct ModuleParametersTests {
    static let descriptor = ModuleDescriptor(
        type: "Gallery", summary: "Pictures.",
        parameters: [
            ParameterSpec("owner", .userID),
            ParameterSpec("pageSize", .int, default: 10, range: 1...50),
            ParameterSpec("order", .string, default: "newest", allowedValues: ["newest", "oldest"]),
        ])

    @Test func defaultsAreFilledAndGivenValuesKept() throws {
        let parameters = try ModuleParameters(for: Self.descriptor, ["owner": "7"])
        #expect(try parameters.string("owner") == "7")
        #expect(try parameters.int("pageSize") == 10)
        #expect(try parameters.string("order") == "newest")
        #expect(try ModuleParameters(for: Self.descriptor, ["owner": "7", "pageSize": 3]).int("pageSize") == 3)
    }

    @Test(arguments: [
        (["owner": "7", "pageSise": 3] as [String: JSONValue], "Gallery has no parameter 'pageSise'; did you mean 'pageSize'?"),
        (["pageSize": 3], "Gallery needs the parameter 'owner'"),
        (["owner": "7", "pageSize": "many"], "'pageSize' of Gallery must be"),
        (["owner": "7", "pageSize": 99], "Gallery: "),
        (["owner": "7", "order": "random"], "Gallery: "),
    ])
    func valuesAScenesFileCouldNotGiveAreRefused(values: [String: JSONValue], message: String) {
        #expect {
            _ = try ModuleParameters(for: Self.descriptor, values)
        } throws: { error in
            (error as? ParameterError)?.message.hasPrefix(message) == true
        }
    }
}
