/// Scene files the tests share.
enum Fixtures {
    /// A profile: everyone sees the profile and items; the owner also gets a tab switch
    /// with their secrets; unfollowing asks for confirmation.
    static let profile = """
        {
          "title": "Profile",
          "parameters": { "user": "userID" },
          "modules": [
            { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } },
            { "id": "items", "type": "ItemsModule", "params": { "owner": "$user" } }
          ],
          "variants": [
            { "name": "owner", "when": "viewer == user",
              "add": [ { "id": "secrets", "type": "SecretModule", "params": { "owner": "$user" } } ],
              "layout": [ "info", { "id": "sections", "tabs": [
                  { "id": "items", "title": "Items", "modules": ["items"] },
                  { "id": "secrets", "title": "Secrets", "modules": ["secrets"] } ] } ] }
          ],
          "events": [
            { "on": "user.unfollow", "steps": [
                { "confirm": { "title": "Unfollow $event.name?", "confirm": "Unfollow", "cancel": "Keep" } },
                "continue",
                { "navigate": { "scene": "detail", "args": { "item": "$user" } } } ] },
            { "on": "item.open", "navigate": { "scene": "detail", "args": { "item": "$event.item" } } },
            { "on": "user.open", "block": true }
          ]
        }
        """

    /// The same profile in a list context: unfollow without confirmation.
    static let list = """
        {
          "parameters": { "user": "userID" },
          "modules": [ { "id": "info", "type": "ProfileModule", "params": { "user": "$user", "greeting": "List:" } } ]
        }
        """

    static let detail = """
        {
          "parameters": { "item": "string" },
          "modules": [ { "id": "text", "type": "TextModule", "params": { "title": "Item $item" } } ]
        }
        """

    static var all: [String: String] { ["profile": profile, "list": list, "detail": detail] }
}
