import ArgumentParser
import Foundation
import Scenery
import SceneryServer
import SceneryTool

/// Where `serve` finds the key it signs sign-in cookies with: one key shared by every server
/// of a site, so that a person signed in on one is signed in on all of them.
///
/// `--secret-file PATH` or `SCENERY_SECRET_FILE=PATH`: a file of at least 32 bytes (any
/// bytes; `head -c 48 /dev/urandom | base64 > PATH` makes one). Without either, a server on a
/// loopback address makes a random key of its own (sign-ins last until it stops); a server
/// on any other address refuses to start, so no site gets a per-process key by accident.
struct SigningKeyOption: ParsableArguments {
    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "A file holding the key sign-in cookies are signed with (at least 32 bytes), shared by every server of the site; also $SCENERY_SECRET_FILE. Needed for any --host but a loopback address.",
            valueName: "path"))
    var path: String?

    /// The shortest key accepted, in bytes.
    static let minimumLength = 32
    /// The longest key file read, in bytes.
    static let largestFile = 4096

    /// The key to sign with, or `nil` for a random key of this process (loopback only).
    /// - Throws: ``CommandFailure`` when the file cannot be read or is too short, or when no
    ///   key is given for a server other machines can reach.
    func key(servingOn host: String) throws -> [UInt8]? {
        let (file, origin) = path.map { ($0, "--secret-file") } ?? (Environment.value("SCENERY_SECRET_FILE").map { ($0, "SCENERY_SECRET_FILE") } ?? ("", ""))
        guard !file.isEmpty else {
            guard SceneryServer.Configuration.isLoopback(host) else {
                throw CommandFailure(
                    "--host \(host.quoted) serves other machines, so sign-ins need a key every server of the site shares: pass --secret-file PATH (or set SCENERY_SECRET_FILE), a file of at least \(Self.minimumLength) random bytes (head -c 48 /dev/urandom | base64 > PATH).",
                    code: .usage)
            }
            return nil
        }
        let data: Data
        do {
            data = try RegularFile.contents(of: file, limit: Self.largestFile)
        } catch {
            throw CommandFailure(
                "Cannot read the signing key \(file.quoted) (\(origin)): \(error.description); pass a file of at least \(Self.minimumLength) random bytes.",
                code: .usage)
        }
        var bytes = [UInt8](data)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard bytes.count >= Self.minimumLength else {
            throw CommandFailure(
                "The signing key \(file.quoted) (\(origin)) is \(bytes.count) bytes; use at least \(Self.minimumLength) random bytes (head -c 48 /dev/urandom | base64 > \(file)).",
                code: .usage)
        }
        return bytes
    }
}
