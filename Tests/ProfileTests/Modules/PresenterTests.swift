import Foundation
import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoUserInfo
import ProfileDemoUserList
import Scenery
import Testing

@Suite struct PresenterTests {
    let profile = UserProfile(
        user: User(id: "4", name: "  ", summary: ""), blogCount: 2, friendCount: 0, followerCount: 1, followingCount: 0, viewerFollows: false)

    @Test(arguments: [("Alice Liddell", "AL"), ("李雷", "李"), ("bob", "B"), ("Mary Ann van Dyke", "MD"), ("  ", nil), ("42 Club", "4")] as [(String, String?)])
    func aPersonWithoutAPictureIsDrawnWithTheirInitials(name: String, initials: String?) throws {
        #expect(ViewNode.ImageSource.initials(of: name.trimmingCharacters(in: .whitespaces)) == initials)
        let someone = UserProfile(
            user: User(id: "9", name: name, summary: ""), blogCount: 0, friendCount: 0, followerCount: 0, followingCount: 0, viewerFollows: nil)
        let avatar = UserInfoPresenter(profile: someone, viewer: nil, wording: UserInfoWording()).avatar
        #expect(avatar == (initials.map(ViewNode.ImageSource.initials) ?? .symbol("person.crop.circle")))
        // The JSON form keeps them, and the page draws them with the name as the label.
        let node = ViewNode.image("avatar", avatar, alt: "Avatar of \(name)")
        #expect(try JSONDecoder().decode(ViewNode.self, from: JSONEncoder().encode(node)) == node)
        if let initials {
            #expect(HTMLRenderer().fragment(node).contains(#"<span aria-hidden="true">\#(initials)</span>"#))
        }
    }

    @Test func aPictureCarriesTheInitialsItsHostDrawsWhenItDoesNotLoad() throws {
        let alice = UserProfile(
            user: User(id: "1", name: "Alice Liddell", avatarURL: "https://example.com/alice.png", summary: ""), blogCount: 0, friendCount: 0,
            followerCount: 0, followingCount: 0, viewerFollows: nil)
        let avatar = UserInfoPresenter(profile: alice, viewer: nil, wording: UserInfoWording()).avatar
        #expect(avatar == .picture("https://example.com/alice.png", initials: "AL"))
        #expect(avatar.initials == "AL")
        // In JSON, the picture's url beside its initials; a client that knows only pictures reads the url.
        let node = ViewNode.image("avatar", avatar, alt: "Avatar of Alice Liddell")
        let json = try JSONEncoder().encode(node)
        let fields = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(fields["url"] as? String == "https://example.com/alice.png" && fields["initials"] as? String == "AL")
        #expect(try JSONDecoder().decode(ViewNode.self, from: json) == node)
        // The page's image names the initials its script draws in the picture's place.
        #expect(HTMLRenderer().fragment(node).contains(#"src="https://example.com/alice.png" alt="Avatar of Alice Liddell" data-initials="AL""#))
        // A nameless person's picture has no initials to fall back to.
        let nameless = UserProfile(
            user: User(id: "4", name: "", avatarURL: "https://example.com/4.png", summary: ""), blogCount: 0, friendCount: 0, followerCount: 0,
            followingCount: 0, viewerFollows: nil)
        #expect(UserInfoPresenter(profile: nameless, viewer: nil, wording: UserInfoWording()).avatar == .url("https://example.com/4.png"))
    }

    @Test func userInfoShowsDefaultsForEmptyNameAndSummary() {
        let presenter = UserInfoPresenter(profile: profile, viewer: "1", wording: UserInfoWording())
        #expect(presenter.name == "Anonymous")
        #expect(presenter.summary == "This user hasn't written anything yet.")
        #expect(presenter.blogCount == "Blogs: 2")
        #expect(presenter.followTitle == "Follow")
        #expect(presenter.avatar == .symbol("person.crop.circle"))
    }

    @Test func userInfoSpeaksTheSeedsWording() {
        var wording = UserInfoWording()
        wording.emptyName = "匿名"
        wording.summaryFormat = "个人简介: {summary}"
        wording.emptySummary = "这个人很懒, 什么也没有写~"
        wording.friendCountFormat = "好友: {count}"
        let presenter = UserInfoPresenter(profile: profile, viewer: "1", wording: wording)
        #expect(presenter.name == "匿名")
        #expect(presenter.summary == "个人简介: 这个人很懒, 什么也没有写~")
        #expect(presenter.friendCount == "好友: 0")
    }

    @Test(arguments: [Optional<UserID>.none, "4"])
    func userInfoHasNoFollowButtonForTheUserOrSignedOut(viewer: UserID?) {
        #expect(UserInfoPresenter(profile: profile, viewer: viewer, wording: UserInfoWording()).followTitle == nil)
    }

    @Test func blogCellFormatsLikesAndAuthorPerWording() {
        let blog = Blog(id: 7, author: "1", authorName: "", title: "", body: "x", likes: 12, createdAt: Date(timeIntervalSince1970: 0), likedByViewer: true)
        let english = BlogCellPresenter(blog: blog, wording: BlogWording(), canLike: true)
        #expect([english.likes, english.author, english.title, english.likeButtonTitle] == ["Likes: 12", "By Anonymous", "Untitled", "Unlike"])
        #expect(english.date == "1970-01-01 00:00")
        var seed = BlogWording()
        seed.likesFormat = "赞 {count}"
        seed.authorFormat = "作者姓名: {name}"
        seed.emptyAuthor = "匿名"
        let chinese = BlogCellPresenter(blog: blog, wording: seed, canLike: false)
        #expect([chinese.likes, chinese.author] == ["赞 12", "作者姓名: 匿名"])
        #expect(chinese.likeButtonTitle == nil, "no like button for a signed-out viewer")
    }

    @Test func draftCellNamesUntitledDrafts() {
        let draft = Draft(id: 3, owner: "1", title: "", editedAt: Date(timeIntervalSince1970: 86_400))
        let cell = DraftCellPresenter(draft: draft)
        #expect([cell.title, cell.edited] == ["Untitled draft", "Edited 1970-01-02 00:00"])
    }

    @Test func followAndFriendCellsShareOneLayout() {
        let entry = UserListEntry(user: User(id: "2", name: "Bob"), viewerFollows: true, friendState: .incoming)
        let follow = FollowCellPresenter().cell(for: entry, viewer: "1")
        let friend = FriendCellPresenter().cell(for: entry, viewer: "1")
        #expect(follow.action == UserCell.Action(title: "Following", event: UserEvents.unfollow))
        #expect(friend.action == UserCell.Action(title: "Accept", event: UserEvents.acceptFriendship, style: .primary))
        #expect(follow.render().allNodes.map(\.id) == friend.render().allNodes.map(\.id), "same layout, different logic")
    }

    @Test(arguments: [
        (FriendState.none, "Add friend", "friend.request"), (.requested, "Requested", "friend.withdraw"),
        (.incoming, "Accept", "friend.accept"), (.friends, "Friends", "friend.remove"),
    ])
    func friendCellsFollowTheFriendState(state: FriendState, title: String, event: String) {
        let entry = UserListEntry(user: User(id: "2", name: "Bob"), viewerFollows: false, friendState: state)
        let cell = FriendCellPresenter().cell(for: entry, viewer: "1")
        #expect(cell.action?.title == title)
        #expect(cell.action?.event.name == event)
    }

    @Test func cellsHaveNoButtonForTheViewerThemselves() {
        let entry = UserListEntry(user: User(id: "1", name: "Me"), viewerFollows: false, friendState: .none)
        #expect(FollowCellPresenter().cell(for: entry, viewer: "1").action == nil)
        #expect(FriendCellPresenter().cell(for: entry, viewer: nil).action == nil)
    }
}
