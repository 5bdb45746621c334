import ArgumentParser
import Foundation
import ProfileDomain
import ProfileStore
import Scenery

/// `scenery data import|export`: load your own profile data, or save the database's.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Import, export or reset the whole profile data set (JSON format scenery.profile-data).",
        subcommands: [Import.self, Export.self, Reset.self])

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database's data with the demo data (undoes what interact sessions changed).")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let dataSet = DemoData.dataSet
                try database.openStore(seedDemoData: false).importData(dataSet)
                Output.line("Reset '\(database.path)' to the demo data: \(dataSet.users.count) users, \(dataSet.blogs.count) blogs, \(dataSet.drafts.count) drafts.")
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the database's data to a JSON file ('-' for standard output).")

        @Argument(help: ArgumentHelp("The file to write.", valueName: "file.json"))
        var file: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let data = try database.openStore().exportData().encoded()
                if file == "-" {
                    Output.write(String(decoding: data, as: UTF8.self) + "\n")
                    return
                }
                do {
                    try data.write(to: URL(filePath: file), options: .atomic)
                } catch {
                    throw CommandFailure("Cannot write '\(file)': \(error.localizedDescription).", code: .sceneryError)
                }
                Output.line("Exported the data of '\(database.path)' to \(file).")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database's data with a JSON file; a file with problems changes nothing.")

        @Argument(help: ArgumentHelp("The file to read.", valueName: "file.json"))
        var file: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(filePath: file))
                } catch {
                    throw CommandFailure("Cannot read '\(file)': \(error.localizedDescription).", code: .sceneryError)
                }
                let problems: [DataProblem]
                do {
                    let dataSet = try ProfileDataSet.decode(from: data)
                    try database.openStore(seedDemoData: false).importData(dataSet)
                    Output.line(
                        "Imported \(dataSet.users.count) users, \(dataSet.blogs.count) blogs, \(dataSet.drafts.count) drafts into '\(database.path)'.")
                    return
                } catch ProfileError.invalidData(let found) {
                    problems = found
                }
                // Point at each problem's line and column, as compilers do.
                let locator: JSONLocator
                do throws(JSONSyntaxError) {
                    locator = try JSONLocator(bytes: Array(data))
                } catch {
                    Output.line("\(file):\(error.location.line):\(error.location.column): error: \(error.message)")
                    throw CommandFailure("'\(file)' is not valid JSON; nothing was imported.", code: .invalidFile)
                }
                for problem in problems {
                    let place = locator.location(of: problem.path)
                    Output.line("\(file):\(place.line):\(place.column): error: \(problem)")
                }
                throw CommandFailure("\(problems.count) problem(s) in '\(file)'; nothing was imported.", code: .invalidFile)
            }
        }
    }
}
