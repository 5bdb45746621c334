import ArgumentParser
import Foundation
import Scenery

/// A failure the tool reports on standard error with a documented exit code.
package struct CommandFailure: Error, CustomStringConvertible {
    package enum Code: Int32 {
        /// A scene or data file has errors.
        case invalidFile = 1
        /// Unknown scene, bad argument value, module failure, database, unreadable file or
        /// output that could not be written.
        case sceneryError = 2
        /// The command line is wrong (as for argument parsing errors).
        case usage = 64
    }

    package var description: String
    package var code: Code

    package init(_ description: String, code: Code) {
        self.description = description
        self.code = code
    }
}

extension AsyncParsableCommand {
    /// Runs `body`, printing a failure as `error: …` on standard error and exiting with its code.
    package func reportingFailures(_ body: () async throws -> Void) async throws {
        Output.ignoreBrokenPipes()
        // Impressions recorded by the command reach their log before it ends, whatever happens.
        defer { ImpressionLogs.flush() }
        do {
            try await body()
            if let failure = Output.writeFailure {
                Output.error(failure)
                throw ExitCode(CommandFailure.Code.sceneryError.rawValue)
            }
        } catch let failure as CommandFailure {
            Output.error(failure.description)
            throw ExitCode(failure.code.rawValue)
        } catch let error as SceneryError {
            Output.error(error.description)
            throw ExitCode(error.code == .invalidScene ? CommandFailure.Code.invalidFile.rawValue : CommandFailure.Code.sceneryError.rawValue)
        } catch let error as DataError {
            Output.error(SceneryError.message(for: error))
            throw ExitCode(CommandFailure.Code.sceneryError.rawValue)
        }
    }
}
