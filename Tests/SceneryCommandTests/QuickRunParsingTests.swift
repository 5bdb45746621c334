import ArgumentParser
import Foundation
import ProfileDemoTool
import Scenery
import Testing

@testable import SceneryTool

/// `run`'s arguments read without the argument parser (a cold start): the same command as the
/// parser's for every form it reads, and the parser's reading for every other form.
@Suite struct QuickRunParsingTests {
    /// The command as a comparable text: each option's wrapper and the value it holds.
    private func described(_ command: RunCommand) -> String { String(reflecting: command) }

    @Test(arguments: [
        ["user-profile"],
        ["user-profile", "--viewer", "1", "--arg", "user=1"],
        ["--viewer=2", "user-profile", "--arg=user=1", "--arg", "page=3"],
        ["user-profile", "--format", "json", "--select", "sections=drafts", "--select", "tabs=b"],
        ["user-profile", "--format=html", "--theme", "dark", "--locale", "zh-Hans"],
        ["user-profile", "--arm", "friends-layout=compact", "--visitor", "v-1"],
        ["user-profile", "--width", "100", "--rows", "blogs:100..<150"],
        ["user-profile", "--scenes", "Scenes", "--database", "/tmp/a.sqlite", "--lock-timeout", "2.5"],
        ["user-profile", "--fail", "blogs", "--fail", "profiles:writes", "--latency", "blogs=2s", "--impressions", "-"],
        ["user-profile", "--scenes", "http://127.0.0.1:8080/scenes", "--cache", "/tmp/cache"],
    ])
    func theQuickReadingGivesTheCommandTheParserGives(arguments: [String]) throws {
        try ModuleCatalog.$current.withValue(.profile) {
            let quick = try #require(QuickRunParsing.command(from: arguments), "\(arguments) should be read quickly")
            let parsed = try RunCommand.parse(arguments)
            #expect(described(quick) == described(parsed))
            // The description shows the values themselves, so a value read wrong would show.
            for value in arguments where !value.hasPrefix("-") { #expect(described(quick).contains(value)) }
        }
    }

    @Test func theQuickReadingKnowsEveryOptionOfRun() {
        // Every `--name` the parser lists for `run` (but its own --help), read by name.
        let help = RunCommand.helpMessage(columns: 10_000)
        let listed = help.matches(of: /(?m)^ +(?:-[a-z], )?--([a-z][a-z-]*)/).map { String($0.output.1) }
        let documented = Set(listed).subtracting(["help"])
        #expect(documented == Set(QuickRunParsing.options.keys))
    }

    @Test(arguments: [
        [],  // no scene
        ["-h"], ["user-profile", "--help"], ["user-profile", "--"], ["user-profile", "-v", "1"],
        ["user-profile", "other-scene"],  // a second scene
        ["user-profile", "--frobnicate", "1"],  // no such option
        ["user-profile", "--viewer"],  // no value
        ["user-profile", "--viewer", "--arg", "user=1"],  // a value that is an option
        ["user-profile", "--viewer", "1", "--viewer", "2"],  // one value, given twice
        ["user-profile", "--format", "xml"], ["user-profile", "--lock-timeout", "soon"],  // values the options do not take
        ["user-profile", "--viewer="],
        ["user-profile", "--width", "3"], ["user-profile", "--width", "-3"], ["user-profile", "--arg", "user"],
        ["user-profile", "--select", "drafts"], ["user-profile", "--rows", "10..5"], ["user-profile", "--viewer", " "],
        ["user-profile", "--cache", "/tmp/c"], ["user-profile", "--lock-timeout", "4000"], ["user-profile", "--arm", "x"],
        ["user-profile", "--fail", "nothing-at-all"],
    ])
    func formsTheQuickReadingLeavesToTheParser(arguments: [String]) {
        ModuleCatalog.$current.withValue(.profile) {
            #expect(QuickRunParsing.command(from: arguments) == nil)
        }
    }

    @Test(arguments: [
        ["user-profile", "--width", "3"], ["user-profile", "--width", "-3"], ["user-profile", "--arg", "user"],
        ["user-profile", "--select", "drafts"], ["user-profile", "--rows", "10..5"], ["user-profile", "--viewer", " "],
        ["user-profile", "--cache", "/tmp/c"], ["user-profile", "--lock-timeout", "4000"], ["user-profile", "--format", "xml"],
    ])
    func argumentsTheQuickReadingRefusesTheParserRefusesToo(arguments: [String]) {
        // So the parser, which reads them next, explains what is wrong.
        ModuleCatalog.$current.withValue(.profile) {
            #expect(throws: (any Error).self) { try RunCommand.parse(arguments) }
        }
    }
}
