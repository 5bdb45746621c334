import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoUserInfo
import ProfileDemoUserList
import Scenery

/// The profile modules of seed 002, registered together with the services they need.
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.registerProfileModules(ProfileServices(try SQLiteProfileStore(path: path)))
/// ```
public enum ProfileModules {
    /// The descriptors of every profile module, for validation without a backend.
    public static let descriptors: [ModuleDescriptor] = [
        UserInfoModule.descriptor, BlogModule.descriptor, BlogPostModule.descriptor, DraftModule.descriptor,
        UserListModule.descriptor,
    ]
}

extension SceneRegistry {
    /// Registers `UserInfoModule`, `BlogModule`, `BlogPostModule`, `DraftModule` and
    /// `UserListModule`, each handed the services it needs.
    ///
    /// A missing user or blog (``ProfileError/isNotFound``) is a permanent failure: the
    /// module's error block offers no retry.
    public mutating func registerProfileModules(_ services: ProfileServices) {
        let recognisesPermanent = isPermanentFailure
        isPermanentFailure = { error in recognisesPermanent(error) || (error as? ProfileError)?.isNotFound == true }
        register(UserInfoModule.self) { parameters, context in
            try UserInfoModule(
                parameters: parameters, context: context, profiles: services.profiles, relationships: services.relationships, changes: services.changes)
        }
        register(BlogModule.self) { parameters, context in
            try BlogModule(parameters: parameters, context: context, blogs: services.blogs, changes: services.changes)
        }
        register(BlogPostModule.self) { parameters, context in
            try BlogPostModule(parameters: parameters, context: context, blogs: services.blogs, changes: services.changes)
        }
        register(DraftModule.self) { parameters, context in
            try DraftModule(parameters: parameters, context: context, drafts: services.drafts, changes: services.changes)
        }
        register(UserListModule.self) { parameters, context in
            try UserListModule(parameters: parameters, context: context, relationships: services.relationships, changes: services.changes)
        }
    }

    /// Declares the profile modules for validation only (no backend needed).
    public mutating func declareProfileModules() {
        for descriptor in ProfileModules.descriptors { declare(descriptor) }
    }
}
