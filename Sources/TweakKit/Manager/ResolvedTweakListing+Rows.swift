extension ResolvedTweakListing {
    /// One entry of a ``ResolvedTweakListing``, as a command that prints every tweak reads it:
    /// the entry's winning tweak alone when that is all there is to say, the whole entry otherwise.
    ///
    /// ```swift
    /// let listing = manager.resolvedTweakListing()
    /// listing.forEachRow { row in
    ///     switch row {
    ///     case .tweak(let tweak, let isOverridden): print(tweak.id, tweak.content, isOverridden)
    ///     case .entry(let resolved): print(resolved.id, resolved.tweak?.content ?? "-")
    ///     }
    /// }
    /// ```
    package enum Row {
        /// An entry whose ``ResolvedTweak/tweak`` is `tweak` (source set, metadata filled in) and
        /// whose ``ResolvedTweak/isOverridden`` is `isOverridden`; it has no issues and is not
        /// evaluated per lookup. Its id is the tweak's, its sources the tweak's source alone.
        case tweak(Tweak, isOverridden: Bool)
        /// Any other entry, in full.
        case entry(ResolvedTweak)
    }

    /// Calls `body` with each entry, in the listing's order: the entries a pass over the listing
    /// gives, each as a ``Row``.
    ///
    /// With one provider of distinct ids, a tweak that is usable as the provider lists it (marked
    /// with the provider's name, not encrypted, not evaluated per lookup) is passed as it is
    /// stored: no ``ResolvedTweak`` is built for it, nor its id, sources and issues (measured on a
    /// 16 MB file of 788,000 tweaks: building them was about a fifth of `tweak list`'s time).
    /// Every other entry is merged as a pass merges it.
    package func forEachRow(_ body: (Row) throws -> Void) rethrows {
        guard lists.count == 1, !lists[0].hasEqualNeighbours, lists[0].listing.evaluated.isEmpty else {
            for entry in self { try body(.entry(entry)) }
            return
        }
        let list = lists[0]
        let tweaks = list.listing.tweaks, name = list.listing.name
        for position in list.order {
            let offset = Int(position)
            if offset < tweaks.count {
                // What `ResolvedTweakBuilder.add` makes of a provider's only tweak when the tweak
                // already carries the provider's name and needs no decryption: the tweak itself
                // (its metadata filled in from itself is itself).
                let tweak = tweaks[offset]
                if !tweak.isEncrypted, tweak.source == name {
                    try body(.tweak(tweak, isOverridden: false))
                    continue
                }
            }
            try body(.entry(list.resolvedAlone(at: offset, decrypt: decrypt)))
        }
    }

    /// At least how many entries the listing has: the distinct ids of its largest provider
    /// listing (those of a provider that lists an id twice are not counted).
    package var underestimatedCount: Int {
        lists.lazy.filter { !$0.hasEqualNeighbours }.map(\.order.count).max() ?? 0
    }
}
