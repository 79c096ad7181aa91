/// The flags or segments an evaluation is inside of, for cycle detection: the first eight kept
/// inline (no allocation for any real nesting), deeper ones in an array.
struct PathStack {
    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private var overflow: [Int] = []

    var isEmpty: Bool { count == 0 }

    mutating func push(_ index: Int) {
        switch count {
        case 0: inline.0 = index
        case 1: inline.1 = index
        case 2: inline.2 = index
        case 3: inline.3 = index
        case 4: inline.4 = index
        case 5: inline.5 = index
        case 6: inline.6 = index
        case 7: inline.7 = index
        default: overflow.append(index)
        }
        count += 1
    }

    mutating func pop() {
        guard count > 0 else { return }
        if count > 8 { overflow.removeLast() }
        count -= 1
    }

    func contains(_ index: Int) -> Bool {
        let kept = min(count, 8)
        if kept > 0 && inline.0 == index { return true }
        if kept > 1 && inline.1 == index { return true }
        if kept > 2 && inline.2 == index { return true }
        if kept > 3 && inline.3 == index { return true }
        if kept > 4 && inline.4 == index { return true }
        if kept > 5 && inline.5 == index { return true }
        if kept > 6 && inline.6 == index { return true }
        if kept > 7 && inline.7 == index { return true }
        return count > 8 && overflow.contains(index)
    }
}
