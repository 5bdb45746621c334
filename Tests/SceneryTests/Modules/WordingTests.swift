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
}
