/// Every tweak the stack knows, sorted by id, as one version of the stack lists them (see
/// ``TweakManager/sortedListing()``): a class, so that whoever derives something from a listing
/// (a server's flag keys) can tell by identity whether the listing it derived from is still current.
package final class TweakListing: Sendable {
    /// One entry per tweak, sorted by feature then variable.
    package let resolutions: [ResolvedTweak]

    init(resolutions: [ResolvedTweak]) {
        self.resolutions = resolutions
    }
}
