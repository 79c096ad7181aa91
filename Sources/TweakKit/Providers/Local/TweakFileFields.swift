/// The fields a tweaks file's variable may have, found in one pass over its members.
struct TweakFileFields {
    var value, title, description, group, generatedPropertyName, encrypted, owner, type, expires: JSONNode?
    /// Whether the variable has a field other than `Value` that ``TweakFileReader`` reads.
    private(set) var hasMore = false

    /// Takes the member `key`, `value` (in an object, each key is there once); other keys are ignored.
    mutating func add(_ key: String, _ value: JSONNode) {
        switch key {
        case "Value": self.value = value; return
        case "Title": title = value
        case "Description": description = value
        case "Group": group = value
        case "GeneratedPropertyName": generatedPropertyName = value
        case "Encrypted": encrypted = value
        case "Owner": owner = value
        case "Type": type = value
        case "Expires": expires = value
        default: return
        }
        hasMore = true
    }
}
