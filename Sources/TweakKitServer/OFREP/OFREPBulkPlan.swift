import Synchronization
import TweakKit

/// What a bulk answer derives from one listing of the stack, made once per listing rather than
/// per request: each flag's bulk key (see ``OFREPFlagKey/keys(for:)``) and the opening of its
/// success answer, `{"key":"<key>","metadata":`.
struct OFREPBulkPlan: Sendable {
    let listing: TweakListing
    let keys: [String]
    let openings: [[UInt8]]
    /// About how many bytes an answer takes: what its buffer reserves.
    let expectedSize: Int

    init(listing: TweakListing) {
        self.listing = listing
        keys = OFREPFlagKey.keys(for: listing.resolutions)
        openings = keys.map(OFREPEvaluation.opening)
        expectedSize = openings.reduce(64) { $0 + $1.count + 64 }
    }
}

/// The plan of the newest listing a bulk request used, and the newest `eventStreams` written,
/// shared by the routes' requests.
final class OFREPBulkPlanCache: Sendable {
    private let newest = Mutex<OFREPBulkPlan?>(nil)
    private let newestStreams = Mutex<(path: String, tag: String, json: [UInt8])?>(nil)

    init() {}

    /// The plan for `listing`: the kept one when it was made from this very listing, else a new one (then kept).
    func plan(for listing: TweakListing) -> OFREPBulkPlan {
        if let kept = newest.withLock({ $0 }), kept.listing === listing { return kept }
        let plan = OFREPBulkPlan(listing: listing)
        newest.withLock { $0 = plan }
        return plan
    }

    /// The JSON of the `eventStreams` of an answer to a request for `path` at configuration `tag`
    /// (see ``OFREPRoutes/eventStreams(path:tag:)``): the kept one when it was for the same path
    /// and tag, else written (then kept).
    func eventStreams(path: String, tag: String) -> [UInt8] {
        if let kept = newestStreams.withLock({ $0 }), kept.path == path, kept.tag == tag { return kept.json }
        let json = Array(((try? JSONWriter.string(OFREPRoutes.eventStreams(path: path, tag: tag))) ?? "[]").utf8)
        newestStreams.withLock { $0 = (path, tag, json) }
        return json
    }
}
