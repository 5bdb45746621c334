/// An error that trying again will not fix, such as a record that does not exist.
///
/// When a module's load throws one, the scene shows the module's error block without a
/// retry control: a person is not offered a button that can never work. Conform your
/// own error types, or tell the registry which errors of a backend are permanent with
/// ``SceneRegistry/isPermanentFailure``.
///
/// ```swift
/// struct NoSuchUser: PermanentError, CustomStringConvertible {
///     var id: String
///     var description: String { "No user with id '\(id)' exists." }
/// }
/// ```
public protocol PermanentError: Error {}
