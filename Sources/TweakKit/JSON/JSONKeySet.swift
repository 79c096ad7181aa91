/// The keys of one JSON object, to find a duplicate: a scan while the object is small, a set once it grows.
struct JSONKeySet {
    private var few: [String] = []
    private var many: Set<String>?

    /// Adds `key`; `false` when the object already has it.
    mutating func insert(_ key: String) -> Bool {
        if many == nil {
            if few.contains(key) { return false }
            few.append(key)
            if few.count > 16 {
                many = Set(few)
                few = []
            }
            return true
        }
        return many?.insert(key).inserted ?? true
    }

    /// Forgets the keys, keeping the storage for the next object's (one allocation for all the
    /// small objects a stream reads, not one each).
    mutating func removeAll() {
        few.removeAll(keepingCapacity: true)
        many = nil
    }
}
