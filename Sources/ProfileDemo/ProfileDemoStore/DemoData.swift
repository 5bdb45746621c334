import Foundation
import ProfileDemoDomain

/// The demo data a new database is seeded with: something to explore in every state.
///
/// - `1` Alice (the one to try as "me"): 27 blogs (pagination), 3 drafts, followers,
///   followings, friends, one incoming and one outgoing friend request.
/// - `2` Bob follows Alice.
/// - `3` 李雷 writes in Chinese.
/// - `4` has an empty name and summary (the defaults show).
/// - `5` Dana has no blogs (the empty state shows).
///
/// Alice, Bob, 李雷 and 韩梅梅 have pictures, shipped in this package (``pictures``) and named
/// by path (`/pictures/alice.svg`), which `scenery serve` serves; Dana and Carol have none
/// (their initials show).
public enum DemoData {
    /// The folder of the demo people's pictures (the package's resources).
    public static var pictures: URL? { Bundle.module.url(forResource: "Pictures", withExtension: nil) }

    /// 2026-01-01 09:00 UTC; blog and draft dates count from here, so output is stable.
    static let epoch = Date(timeIntervalSince1970: 1_767_258_000)

    static func day(_ n: Int, hour: Int = 0) -> Date {
        epoch.addingTimeInterval(TimeInterval(n * 86_400 + hour * 3_600))
    }

    /// The demo data set.
    public static let dataSet: ProfileDataSet = {
        let users = [
            User(id: "1", name: "Alice Liddell", avatarURL: "/pictures/alice.svg", summary: "Writes about rabbits, clocks and tea."),
            User(id: "2", name: "Bob Chen", avatarURL: "/pictures/bob.svg", summary: "Follows Alice for the tea reviews."),
            User(id: "3", name: "李雷", avatarURL: "/pictures/lilei.svg", summary: "喜欢写代码，也喜欢写博客。"),
            User(id: "4", name: "", avatarURL: nil, summary: ""),
            User(id: "5", name: "Dana Quiet", avatarURL: nil, summary: "Reads everything, writes nothing."),
            User(id: "6", name: "韩梅梅", avatarURL: "/pictures/hanmeimei.svg", summary: "周末去爬山。"),
            User(id: "7", name: "Carol Mint", avatarURL: nil, summary: "Gardens, mostly."),
        ]
        let aliceTitles = [
            "Down the rabbit hole", "A mad tea party", "The pool of tears", "Advice from a caterpillar",
            "Pig and pepper", "The queen's croquet ground", "Who stole the tarts?", "Alice's evidence",
            "兔子洞里的下午茶", "Clocks that run backwards", "How to be very late", "Curiouser and curiouser",
        ]
        var blogs: [ProfileDataSet.BlogRecord] = []
        var nextBlog: Int64 = 1
        func add(_ author: UserID, _ title: String, _ body: String, day n: Int) {
            blogs.append(.init(id: nextBlog, author: author, title: title, body: body, createdAt: day(n)))
            nextBlog += 1
        }
        for index in 0..<27 {
            let title = aliceTitles[index % aliceTitles.count] + (index >= aliceTitles.count ? ", part \(index / aliceTitles.count + 1)" : "")
            add("1", title, "Notes number \(index + 1) from the other side of the looking glass.", day: index)
        }
        add("2", "Tea, reviewed", "Twelve teas, ranked by how late they made me.", day: 3)
        add("2", "On following people", "Why I read Alice first every morning.", day: 9)
        add("2", "Bicycles", "Two wheels, no clocks.", day: 15)
        for (index, title) in ["第一篇博客", "写代码的乐趣", "周末读书笔记", "如何做一杯好茶", "关于草稿箱"].enumerated() {
            add("3", title, "这是李雷的第\(index + 1)篇文章。", day: 2 + index * 4)
        }
        add("4", "Untitled thoughts", "A post by someone who never set a name.", day: 6)
        add("4", "", "A post without a title.", day: 7)
        add("6", "爬山日记", "周末去了香山。", day: 11)
        add("6", "春天来了", "花都开了。", day: 20)
        add("7", "Mint, in June", "It spreads. Plant it in a pot.", day: 18)

        var likes: [ProfileDataSet.LikeRecord] = []
        for blog in blogs {
            // User n likes every (n+1)-th blog: counts vary from blog to blog.
            for (index, user) in users.enumerated() where user.id != blog.author && Int(blog.id) % (index + 2) == 0 {
                likes.append(.init(blog: blog.id, user: user.id))
            }
        }
        let drafts = [
            Draft(id: 1, owner: "1", title: "Through the looking glass", body: "Half written.", editedAt: day(27, hour: 5)),
            Draft(id: 2, owner: "1", title: "草稿：下一篇茶会", body: "还没写完。", editedAt: day(28, hour: 2)),
            Draft(id: 3, owner: "1", title: "", body: "An idea with no title yet.", editedAt: day(25)),
            Draft(id: 4, owner: "3", title: "李雷的草稿", body: "", editedAt: day(21)),
        ]
        let follows: [ProfileDataSet.FollowRecord] = [
            ("2", "1"), ("3", "1"), ("5", "1"), ("6", "1"), ("7", "1"),
            ("1", "2"), ("1", "3"), ("1", "7"), ("2", "3"), ("3", "6"),
        ].map { .init(follower: UserID($0.0), followee: UserID($0.1)) }
        let friendships: [ProfileDataSet.FriendshipRecord] = [
            .init(requester: "1", addressee: "3", status: .accepted),
            .init(requester: "6", addressee: "1", status: .accepted),
            .init(requester: "7", addressee: "1", status: .accepted),
            .init(requester: "4", addressee: "1", status: .pending),
            .init(requester: "1", addressee: "5", status: .pending),
            .init(requester: "2", addressee: "3", status: .accepted),
        ]
        return ProfileDataSet(users: users, blogs: blogs, likes: likes, drafts: drafts, follows: follows, friendships: friendships)
            .normalized()
    }()
}
