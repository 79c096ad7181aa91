/// AND and OR over true, false and unknown (`nil`), as Optimizely's condition evaluators define them.
enum ThreeValuedLogic {
    /// Any false → false; else any unknown → unknown; else true (no operands: true).
    @inline(__always)
    static func and<Operands: Sequence>(_ operands: Operands, _ value: (Operands.Element) -> Bool?) -> Bool? {
        var sawUnknown = false
        for operand in operands {
            switch value(operand) {
            case false?: return false
            case nil: sawUnknown = true
            case true?: break
            }
        }
        return sawUnknown ? nil : true
    }

    /// Any true → true; else any unknown → unknown; else false (no operands: false).
    @inline(__always)
    static func or<Operands: Sequence>(_ operands: Operands, _ value: (Operands.Element) -> Bool?) -> Bool? {
        var sawUnknown = false
        for operand in operands {
            switch value(operand) {
            case true?: return true
            case nil: sawUnknown = true
            case false?: break
            }
        }
        return sawUnknown ? nil : false
    }
}
