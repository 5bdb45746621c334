import Testing

@testable import Scenery

@Suite struct WordingTests {
    @Test(arguments: [
        ("Likes: %d", "Likes: 12"),
        ("赞 %ld", "赞 12"),
        ("作者姓名: %@", "作者姓名: 12"),
        ("100%% of %d", "100% of 12"),
        ("%d and %d", "12 and Ann"),
        ("%2$@ then %1$@", "Ann then 12"),
        ("%d %d %d", "12 Ann "),
        ("%", "%"),
        ("50% off", "50% off"),
        ("%5$@", ""),
        ("%q %n %x", "%q %n %x"),
        ("no placeholders", "no placeholders"),
    ])
    func fillsPlaceholdersWithoutEverCrashing(template: String, expected: String) {
        #expect(Wording.format(template, 12, "Ann") == expected)
    }

    @Test func allowedValuesAreValidatedWithASuggestion() {
        var registry = SceneRegistry(builtIns: false)
        registry.declare(
            ModuleDescriptor(type: "Pick", summary: "Picks.", parameters: [ParameterSpec("list", .string, allowedValues: ["followers", "following"])]))
        let problems = registry.addScene(id: "s", source: #"{ "modules": [ { "id": "a", "type": "Pick", "params": { "list": "folowers" } } ] }"#)
        #expect(problems.map(\.message) == ["'folowers' is not a value of 'list' of Pick; did you mean 'followers'? (allowed values: followers, following)."])
    }
}
