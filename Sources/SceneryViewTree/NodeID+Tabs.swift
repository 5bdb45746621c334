extension NodeID {
    /// The id of a tab's control in a tab switch, `sections#drafts`: what a host activates
    /// to select the tab. Built and read here only.
    package static func tabControl(_ tab: String, of tabSwitch: NodeID) -> NodeID {
        NodeID("\(tabSwitch.rawValue)#\(tab)")
    }

    /// The tab switch and tab this id names, if it is a tab's control (`sections#drafts`).
    package var tabControl: (tabSwitch: NodeID, tab: String)? {
        let parts = rawValue.split(separator: "#", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        return (NodeID(parts[0]), parts[1])
    }
}
