import TweakKitEngineSupport

/// Flagsmith's percentage of a list of ids: the MD5 of the ids joined with commas, as a number,
/// modulo 9999, over 9998, times 100; a result of exactly 100 hashes the ids twice over (and so on).
enum FlagsmithPercentage {
    /// The percentage of `[first, second + third + fourth]` (the identity key may come in parts).
    static func of(_ first: String, _ second: String, _ third: String = "", _ fourth: String = "") -> Double {
        var iterations = 1
        while true {
            var md5 = MD5()
            for iteration in 0..<iterations {
                if iteration > 0 { md5.update(UInt8(ascii: ",")) }
                md5.update(first)
                md5.update(UInt8(ascii: ","))
                md5.update(second)
                md5.update(third)
                md5.update(fourth)
            }
            let remainder = Self.remainder(md5.finalize())
            let value = Double(remainder) / 9998 * 100
            if value != 100 || iterations >= 64 { return value }
            iterations += 1
        }
    }

    /// The percentage of `[seed, identity key]`: the identity's key, or `<environment key>_<identifier>`
    /// hashed in its parts, with no string built.
    static func of(_ seed: String, identity: FlagsmithIdentity, environmentKey: String) -> Double {
        if let explicit = identity.key, !explicit.isEmpty { return of(seed, explicit) }
        return of(seed, environmentKey, "_", identity.identifier)
    }

    /// `int(hexdigest, 16) % 9999` from the digest's halves: `high * 2^64 + low` with 2^64 taken
    /// modulo 9999 (1,897), so each `%` is by a constant, which compiles to a multiplication
    /// (`Digest.remainder(dividingBy:)` divides 128 bits by a variable: `Flagsmith.Flag` benchmark).
    static func remainder(_ digest: MD5.Digest) -> UInt64 {
        let twoTo64 = (UInt64.max % 9999 + 1) % 9999
        return ((digest.high % 9999) * twoTo64 + digest.low % 9999) % 9999
    }
}
