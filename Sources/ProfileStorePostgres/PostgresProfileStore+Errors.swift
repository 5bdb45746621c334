import PostgresNIO
import ProfileDomain
import Scenery

extension PostgresProfileStore {
    /// What the service calls throw for an error of the driver or the server: a
    /// ``ProfileDomain/ProfileError`` whose kind says what the caller can do, and whose
    /// message names the database (never its password) and what to check.
    func profileError(_ error: any Error, doing action: String) -> ProfileError {
        if let error = error as? ProfileError { return error }
        let place = "PostgreSQL at \(url.redacted.quoted)"
        guard let error = error as? PSQLError else {
            return ProfileError(
                .connectionLost,
                "Cannot reach \(place) to \(action) (\(String(reflecting: error))); check that the server runs and that the URL's host, port, user and database are right."
            )
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "40001", "40P01":
                return .conflict("\(place) could not \(action) because another write touched the same rows at the same time; try again.")
            case _ where state.hasPrefix("08"), "57P01", "57P02", "57P03":
                return ProfileError(.connectionLost, "\(place) stopped answering while trying to \(action) (\(message)); it retries once the server is back.")
            case "28P01", "28000":
                return .storage("\(place) refused the user \(url.user.quoted) (\(message)); check the user and password in the URL.")
            case "3D000":
                return .storage("\(place) has no database \(url.database.quoted); create it (createdb \(url.database)) or fix the URL.")
            default:
                return .storage("\(place) refused to \(action): \(message) (SQLSTATE \(state)).")
            }
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            let reason = error.underlying.map { String(describing: $0) } ?? "the connection closed"
            return ProfileError(
                .connectionLost,
                "Lost the connection to \(place) while trying to \(action) (\(reason)); check that the server runs. The next call connects again.")
        case .sslUnsupported:
            return .storage("\(place) does not offer TLS, which the URL requires; add ?sslmode=disable on a private network, or turn on TLS.")
        case .authMechanismRequiresPassword:
            return .storage("\(place) asks for a password for \(url.user.quoted); put it in the URL (postgres://USER:PASSWORD@…).")
        default:
            return .storage("\(place) failed to \(action): \(String(reflecting: error)).")
        }
    }

    /// Runs a read, turning driver errors into ``ProfileDomain/ProfileError``.
    func reading<T>(_ action: String, _ body: (PostgresConnection) async throws -> T) async throws(ProfileError) -> T {
        do {
            return try await client.withConnection { connection in try await body(connection) }
        } catch {
            throw profileError(error, doing: action)
        }
    }
}
