import Foundation

/// Reading a file someone named, safely: only a regular file (a symbolic link is followed
/// to one), at most a given size, never blocking on a FIFO or a device.
package enum RegularFile {
    /// Why a file was not read, in words that finish "Cannot read 'x': …".
    package struct Refusal: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// What `path` is, when it is not a regular file (`nil` when it is one).
    package static func kind(of path: String) throws(Refusal) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno == ELOOP ? "its symbolic links form a loop" : String(cString: strerror(errno)).lowercased()
            throw Refusal(description: reason)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// The bytes of the regular file at `path` in `folder`, if it holds at most `limit`
    /// bytes and it is in that folder: a symbolic link to a file outside it is refused, so
    /// a link planted in a served folder (`passwd.json → /etc/passwd`) reads nothing.
    package static func contents(of path: String, limit: Int, within folder: String) throws(Refusal) -> Data {
        guard let resolvedFolder = realPath(folder) else { throw Refusal(description: "its folder cannot be resolved") }
        guard let resolved = realPath(path) else {
            // Missing, or its links loop: the plain read says which.
            return try contents(of: path, limit: limit)
        }
        let inside = resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/"
        guard resolved.hasPrefix(inside) else {
            throw Refusal(description: "it is a link to a file outside its folder; copy the file into the folder instead")
        }
        return try contents(of: resolved, limit: limit)
    }

    /// The absolute path of `path` with every symbolic link resolved, or `nil`.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The bytes of the regular file at `path`, if it holds at most `limit` bytes.
    /// - Throws: ``Refusal`` saying why not: it does not exist, is a directory, a FIFO or a
    ///   device, its links loop, it is larger than `limit`, or reading failed.
    package static func contents(of path: String, limit: Int) throws(Refusal) -> Data {
        if let kind = try kind(of: path) { throw Refusal(description: "it is \(kind), not a file") }
        // Non-blocking, so a FIFO swapped in after the check cannot hold the reader.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(description: String(cString: strerror(errno)).lowercased()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(description: "it is not a regular file")
        }
        guard Int(status.st_size) <= limit else {
            throw Refusal(description: "it is \(status.st_size) bytes, more than the \(limit) allowed")
        }
        var data = Data(count: Int(status.st_size))
        var total = 0
        while total < data.count {
            let read = data.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw Refusal(description: String(cString: strerror(errno)).lowercased())
            }
            if read == 0 { break }
            total += read
        }
        data.count = total
        return data
    }
}
