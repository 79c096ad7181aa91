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
    private let lists: [List]
    private let decrypt: (@Sendable (Tweak) throws -> TweakContent)?

    /// One provider's listing and the order to read it in.
    private struct List: Sendable {
        let listing: ProviderListing
        /// `[name]`, shared by the entries this provider is the first source of, as a build shares it.
        let providerOnly: [String]
        /// Positions in `listing.tweaks` followed by `listing.evaluatedOnly`, sorted by id; equal
        /// ids keep the provider's order.
        let order: [UInt32]

        init(_ listing: ProviderListing) {
            self.listing = listing
            providerOnly = [listing.name]
            let count = listing.tweaks.count + listing.evaluatedOnly.count
            precondition(count < Int(UInt32.max), "too many tweaks for one provider's listing")
            var order = (0..<UInt32(count)).map { $0 }
            let tweaks = listing.tweaks, evaluatedOnly = listing.evaluatedOnly
            func id(_ position: UInt32) -> TweakID {
                let offset = Int(position)
                return offset < tweaks.count ? tweaks[offset].id : evaluatedOnly[offset - tweaks.count]
            }
            order.sort { lhs, rhs in
                let left = id(lhs), right = id(rhs)
                if left < right { return true }
                if right < left { return false }
                return lhs < rhs
            }
            self.order = order
        }

        func id(at index: Int) -> TweakID {
            let offset = Int(order[index])
            let tweaks = listing.tweaks
            return offset < tweaks.count ? tweaks[offset].id : listing.evaluatedOnly[offset - tweaks.count]
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

        fileprivate init(listing: ResolvedTweakListing) {
            self.listing = listing
            self.cursors = Array(repeating: 0, count: listing.lists.count)
        }

        package mutating func next() -> ResolvedTweak? {
            let lists = listing.lists
            var smallest: TweakID?
            for (index, list) in lists.enumerated() where cursors[index] < list.order.count {
                let id = list.id(at: cursors[index])
                if smallest.map({ id < $0 }) ?? true { smallest = id }
            }
            guard let smallest else { return nil }
            // The entry carries the id as its first source writes it, as in a build (ids that
            // differ only in Unicode normalization are one tweak).
            var builder: ResolvedTweakBuilder?
            for (index, list) in lists.enumerated() {
                while cursors[index] < list.order.count {
                    let id = list.id(at: cursors[index])
                    guard !(smallest < id) else { break }
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
