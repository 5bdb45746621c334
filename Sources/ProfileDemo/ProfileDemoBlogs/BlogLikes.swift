import ProfileDemoDomain
import Scenery

/// The optimistic like both blog modules share: flip at once, write, then settle on the
/// server's count or roll back.
struct BlogLikes {
    let blogs: any BlogService
    let viewer: UserID?

    /// The like event's blog id and wanted state, if the event is a like.
    static func request(in event: Event) -> (blog: BlogID, liked: Bool?)? {
        guard let like = try? BlogEvents.like.payload(of: event) else { return nil }
        return (like.blog, like.liked)
    }

    /// The blog after a like or unlike the viewer asked for, before the server answers.
    static func toggled(_ blog: Blog, liked: Bool) -> Blog {
        var blog = blog
        if blog.likedByViewer != liked { blog.likes = max(0, blog.likes + (liked ? 1 : -1)) }
        blog.likedByViewer = liked
        return blog
    }

    /// Writes the like; returns the settled blog, or the rolled-back blog and a message.
    /// A like its page sent twice, applied by the first (on this server or another), settles
    /// on the blog as stored.
    func write(_ liked: Bool, on original: Blog) async -> (blog: Blog, failure: String?) {
        guard let viewer else { return (original, "Sign in to like blogs.") }
        do {
            let count = try await blogs.setLiked(liked, blog: original.id, by: viewer)
            var settled = Self.toggled(original, liked: liked)
            settled.likes = count
            return (settled, nil)
        } catch let error as ProfileError where error.kind == .alreadyApplied {
            let stored = try? await blogs.blog(original.id, viewer: viewer)
            return (stored ?? Self.toggled(original, liked: liked), nil)
        } catch {
            return (
                original,
                "Couldn't \(liked ? "like" : "unlike") “\(original.title)”: \(SceneryError.messageForViewers(of: error)) Tap \(liked ? "Like" : "Unlike") to try again."
            )
        }
    }
}
