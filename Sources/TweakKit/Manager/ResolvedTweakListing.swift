import Synchronization

/// Every tweak the stack lists, with what the stack says about it, sorted by feature then variable:
/// the entries of ``TweakManager/allResolvedTweaks()``, merged from the providers' listings as
/// they are read instead of from the manager's lookup snapshot.
///
/// For a command that prints every tweak once: it holds the providers' tweaks and, for each
/// provider, its tweaks' order (4 bytes a tweak), not the snapshot's string-lookup tables and
/// entries (several hundred bytes a tweak together), and it builds none of them for the lookups that
/// follow. Each pass over it merges anew, so it can be read more than once (to measure a table's
/// columns, then to print it); an entry's winner, sources, issues and metadata are decided as a
/// snapshot build decides them.
///
/// ```swift
/// let listing = manager.resolvedTweakListing()
/// for resolved in listing {
///     print(resolved.id, resolved.tweak?.content.description ?? "-", resolved.sources)
/// }
/// for error in listing.providerErrors { print(error) }   // providers that could not list theirs
/// ```
///
/// Unlike a snapshot build, reading it logs no warning for an entry's issues (it may be read
/// several times); the issues are in each entry.
package struct ResolvedTweakListing: Sequence, Sendable {
    /// The providers that failed to list their tweaks; their tweaks are not in the listing.
    package let providerErrors: [TweakError]
    let lists: [List]
    let decrypt: (@Sendable (Tweak) throws -> TweakContent)?

    /// One provider's listing and the order to read it in.
    struct List: Sendable {
        let listing: ProviderListing
        /// `[name]`, shared by the entries this provider is the first source of, as a build shares it.
        let providerOnly: [String]
        /// Positions in `listing.tweaks` followed by `listing.evaluatedOnly`, sorted by id; equal
        /// ids keep the provider's order.
        let order: [UInt32]
        /// Whether two positions next to each other in `order` hold one id (the provider lists a
        /// tweak twice, or two ids that differ only in Unicode normalization): then one entry
        /// gathers several of the provider's tweaks.
        let hasEqualNeighbours: Bool

        init(_ listing: ProviderListing) {
            self.listing = listing
            providerOnly = [listing.name]
            let count = listing.tweaks.count + listing.evaluatedOnly.count
            precondition(count < Int(UInt32.max), "too many tweaks for one provider's listing")
            let tweaks = listing.tweaks, evaluatedOnly = listing.evaluatedOnly
            func feature(_ offset: Int) -> String {
                offset < tweaks.count ? tweaks[offset].feature : evaluatedOnly[offset - tweaks.count].feature
            }
            func variable(_ offset: Int) -> String {
                offset < tweaks.count ? tweaks[offset].variable : evaluatedOnly[offset - tweaks.count].variable
            }
            // A provider lists a feature's variables together, as a file writes them: the runs of one
            // feature are sorted by feature (n log n comparisons for n features, not for n tweaks),
            // then the tweaks of each feature by variable. Ties keep the provider's order.
            var runs: [Range<Int>] = []
            var runStart = 0
            var runFeature = count > 0 ? feature(0) : ""
            for offset in 1..<Swift.max(count, 1) {
                let next = feature(offset)
                if next != runFeature {
                    runs.append(runStart..<offset)
                    runStart = offset
                    runFeature = next
                }
            }
            if count > 0 { runs.append(runStart..<count) }
            let runFeatures = runs.map { feature($0.lowerBound) }
            var runOrder = Array(runs.indices)
            runOrder.sort { lhs, rhs in
                let left = runFeatures[lhs], right = runFeatures[rhs]
                if left < right { return true }
                if right < left { return false }
                return lhs < rhs
            }
            var order: [UInt32] = []
            order.reserveCapacity(count)
            var hasEqualNeighbours = false
            var variables: [String] = [], positions: [Int] = [], offsets: [UInt32] = []
            var group = 0
            while group < runOrder.count {
                // The runs of one feature (ids that differ only in Unicode normalization are one).
                var end = group + 1
                while end < runOrder.count, !(runFeatures[runOrder[group]] < runFeatures[runOrder[end]]) { end += 1 }
                let start = order.count
                for run in runOrder[group..<end] {
                    for offset in runs[run] { order.append(UInt32(offset)) }
                }
                if end - group > 1 || runs[runOrder[group]].count > 1 {
                    // The feature's variables read once, not through the tweaks at each comparison
                    // (measured on a 16 MB file: making the order took a quarter less time).
                    variables.removeAll(keepingCapacity: true)
                    for offset in order[start...] { variables.append(variable(Int(offset))) }
                    positions.removeAll(keepingCapacity: true)
                    positions.append(contentsOf: variables.indices)
                    positions.sort { lhs, rhs in
                        let left = variables[lhs], right = variables[rhs]
                        if left < right { return true }
                        if right < left { return false }
                        return lhs < rhs
                    }
                    offsets.removeAll(keepingCapacity: true)
                    offsets.append(contentsOf: order[start...])
                    for (index, position) in positions.enumerated() { order[start + index] = offsets[position] }
                    if !hasEqualNeighbours {
                        for index in 1..<positions.count where !(variables[positions[index - 1]] < variables[positions[index]]) {
                            hasEqualNeighbours = true
                            break
                        }
                    }
                }
                group = end
            }
            self.order = order
            self.hasEqualNeighbours = hasEqualNeighbours
        }

        func id(at index: Int) -> TweakID {
            let offset = Int(order[index])
            let tweaks = listing.tweaks
            return offset < tweaks.count ? tweaks[offset].id : listing.evaluatedOnly[offset - tweaks.count]
        }

        /// The entry of the tweak at `offset` in `listing.tweaks` followed by `listing.evaluatedOnly`,
        /// when this provider is the only one holding its id.
        func resolvedAlone(at offset: Int, decrypt: (@Sendable (Tweak) throws -> TweakContent)?) -> ResolvedTweak {
            let tweaks = listing.tweaks
            if offset < tweaks.count {
                let tweak = tweaks[offset]
                let id = tweak.id
                var builder = ResolvedTweakBuilder(id: id)
                builder.add(
                    tweak, from: listing.name, providerOnly: providerOnly,
                    contextual: !listing.evaluated.isEmpty && listing.evaluated.contains(id), decrypt: decrypt)
                return builder.resolved
            }
            var builder = ResolvedTweakBuilder(id: listing.evaluatedOnly[offset - tweaks.count])
            builder.addEvaluatedOnly(from: listing.name, providerOnly: providerOnly)
            return builder.resolved
        }
    }

    init(providers: [any TweakProvider], decrypt: (@Sendable (Tweak) throws -> TweakContent)?, logger: TweakLogger) {
        let (lists, errors, _, _) = TweakSnapshot.listings(of: providers, logger: logger)
        self.lists = lists.map(List.init)
        self.providerErrors = errors
        self.decrypt = decrypt
    }

    package func makeIterator() -> Iterator {
        Iterator(listing: self)
    }

    /// Merges the providers' sorted listings: each step takes the smallest id at any provider's
    /// cursor and adds that id's entries provider by provider, highest priority first.
    package struct Iterator: IteratorProtocol {
        private let listing: ResolvedTweakListing
        private var cursors: [Int]
        /// The id at each provider's cursor; `nil` once the provider's listing is read.
        private var heads: [TweakID?]
        /// Whether the listing is one provider's whose ids are all distinct.
        private let isOnlyList: Bool

        fileprivate init(listing: ResolvedTweakListing) {
            self.listing = listing
            self.cursors = Array(repeating: 0, count: listing.lists.count)
            isOnlyList = listing.lists.count == 1 && listing.lists[0].hasEqualNeighbours == false
            // The heads of one list of distinct ids are not read (see `next()`).
            self.heads = isOnlyList ? [nil] : listing.lists.map { $0.order.isEmpty ? nil : $0.id(at: 0) }
        }

        package mutating func next() -> ResolvedTweak? {
            // One provider whose ids are all distinct: its order is the answer, an entry a position,
            // with no ids compared (measured: a third of the merge's time on a 16 MB file). Its list
            // is not copied out of the listing for each entry (that was a dozen retains and releases).
            if isOnlyList {
                let cursor = cursors[0]
                guard cursor < listing.lists[0].order.count else { return nil }
                cursors[0] = cursor + 1
                return listing.lists[0].resolvedAlone(at: Int(listing.lists[0].order[cursor]), decrypt: listing.decrypt)
            }
            let lists = listing.lists
            var smallest: TweakID?
            for head in heads {
                guard let head else { continue }
                if smallest.map({ head < $0 }) ?? true { smallest = head }
            }
            guard let smallest else { return nil }
            // The entry carries the id as its first source writes it, as in a build (ids that
            // differ only in Unicode normalization are one tweak).
            var builder: ResolvedTweakBuilder?
            for (index, list) in lists.enumerated() {
                while let id = heads[index], !(smallest < id) {
                    if builder == nil { builder = ResolvedTweakBuilder(id: id) }
                    let offset = Int(list.order[cursors[index]])
                    let entry = list.listing
                    if offset < entry.tweaks.count {
                        builder?.add(
                            entry.tweaks[offset], from: entry.name, providerOnly: list.providerOnly,
                            contextual: !entry.evaluated.isEmpty && entry.evaluated.contains(id), decrypt: listing.decrypt)
                    } else {
                        builder?.addEvaluatedOnly(from: entry.name, providerOnly: list.providerOnly)
                    }
                    cursors[index] += 1
                    heads[index] = cursors[index] < list.order.count ? list.id(at: cursors[index]) : nil
                }
            }
            return builder?.resolved
        }
    }
}

extension TweakManager {
    /// Every tweak the stack lists, sorted by feature then variable, merged from the providers as
    /// it is read: what ``allResolvedTweaks()`` returns, without building the lookup snapshot.
    /// For listing every tweak once, as `tweak list` does; lookups are faster through the snapshot.
    ///
    /// ```swift
    /// let listing = manager.resolvedTweakListing()
    /// Array(listing) == manager.allResolvedTweaks()   // true
    /// ```
    ///
    /// Providers that list no tweaks (JustTweak's kind) are left out, as ``allResolvedTweaks()``
    /// leaves them out; the providers are asked for their tweaks now, once.
    package func resolvedTweakListing() -> ResolvedTweakListing {
        let decrypt = state.withLock { $0.decryptionClosure }
        return ResolvedTweakListing(providers: tweakProviders, decrypt: decrypt, logger: logger)
    }
}
