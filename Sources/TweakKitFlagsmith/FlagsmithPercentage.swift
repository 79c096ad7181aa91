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
            let remainder = md5.finalize().remainder(dividingBy: 9999)
            let value = Double(remainder) / 9998 * 100
            if value != 100 || iterations >= 64 { return value }
            iterations += 1
        }
    }
}
