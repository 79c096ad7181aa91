/// A compiled regular expression: instructions for ``RegExpMachine``, a backtracking machine
/// whose stack lives on the heap, so no pattern or input can overflow the call stack.
/// Lookbehinds compile right to left, as ECMAScript matches them (their sequences reversed,
/// each unit read before the position), so captures and backreferences inside them agree.
struct RegExpProgram: Sendable {
    enum Instruction: Sendable {
        case unit(UInt16)
        case set(Int)
        case dot
        /// In a lookbehind, which matches right to left: the unit before the position.
        case unitBackward(UInt16)
        case setBackward(Int)
        case dotBackward
        /// Continue at the first; on failure, at the second.
        case split(Int, Int)
        case jump(Int)
        /// Register ← position (capture boundaries).
        case save(Int)
        /// counter ← 0.
        case loopInit(counter: Int)
        /// Another iteration (`body`) or leave (`exit`), within min…max, greedy or lazy.
        case loopTest(counter: Int, min: Int, max: Int, greedy: Bool, body: Int, exit: Int)
        /// start ← position; the captures inside the repeated atom are reset.
        case iterationStart(start: Int, captures: Range<Int>)
        /// An optional iteration that matched nothing fails; counter += 1, back to `loop`.
        case iterationEnd(counter: Int, start: Int, min: Int, loop: Int)
        case lineStart, lineEnd
        case wordBoundary(negated: Bool)
        /// Runs `program` (an index into ``programs``) as a lookahead or lookbehind.
        case look(program: Int, ahead: Bool, negated: Bool)
        case backreference(Int)
        case backreferenceBackward(Int)
        case match
    }

    /// The pattern's program first, then those of its lookarounds.
    var programs: [[Instruction]] = [[]]
    var sets: [RegExpCharacterSet] = []
    /// Registers: two per capture (group 0 unused), then loop counters and iteration starts.
    var registerCount: Int
    /// The pattern starts with `^` in every alternative: only position 0 can match.
    var anchored = false

    init(_ root: RegExpNode, captureCount: Int) {
        registerCount = 2 * (captureCount + 1)
        var main: [Instruction] = []
        emit(root, backward: false, into: &main)
        main.append(.match)
        programs[0] = main
        if case .lineStart? = main.first { anchored = true }
    }

    private mutating func register() -> Int {
        registerCount += 1
        return registerCount - 1
    }

    private mutating func emit(_ node: RegExpNode, backward: Bool, into code: inout [Instruction]) {
        switch node {
        case .empty: break
        case .unit(let unit): code.append(backward ? .unitBackward(unit) : .unit(unit))
        case .set(let set):
            sets.append(set)
            code.append(backward ? .setBackward(sets.count - 1) : .set(sets.count - 1))
        case .dot: code.append(backward ? .dotBackward : .dot)
        case .sequence(let nodes):
            for node in backward ? nodes.reversed() : nodes { emit(node, backward: backward, into: &code) }
        case .alternation(let alternatives):
            var jumpsToEnd: [Int] = []
            for (offset, alternative) in alternatives.enumerated() {
                let isLast = offset == alternatives.count - 1
                let split = code.count
                if !isLast { code.append(.split(0, 0)) }
                emit(alternative, backward: backward, into: &code)
                if !isLast {
                    jumpsToEnd.append(code.count)
                    code.append(.jump(0))
                    code[split] = .split(split + 1, code.count)
                }
            }
            for jump in jumpsToEnd { code[jump] = .jump(code.count) }
        case .capture(let group, let body):
            code.append(.save(backward ? 2 * group + 1 : 2 * group))
            emit(body, backward: backward, into: &code)
            code.append(.save(backward ? 2 * group : 2 * group + 1))
        case .repetition(let body, let min, let max, let greedy, let captures):
            let counter = register()
            let start = register()
            code.append(.loopInit(counter: counter))
            let test = code.count
            code.append(.jump(0))
            let bodyStart = code.count
            code.append(.iterationStart(start: start, captures: 2 * captures.lowerBound..<2 * captures.upperBound))
            emit(body, backward: backward, into: &code)
            code.append(.iterationEnd(counter: counter, start: start, min: min, loop: test))
            code[test] = .loopTest(counter: counter, min: min, max: max ?? Int.max, greedy: greedy, body: bodyStart, exit: code.count)
        case .lineStart: code.append(.lineStart)
        case .lineEnd: code.append(.lineEnd)
        case .wordBoundary(let negated): code.append(.wordBoundary(negated: negated))
        case .look(let body, let ahead, let negated):
            let index = programs.count
            programs.append([])
            var sub: [Instruction] = []
            emit(body, backward: !ahead, into: &sub)
            sub.append(.match)
            programs[index] = sub
            code.append(.look(program: index, ahead: ahead, negated: negated))
        case .backreference(let group): code.append(backward ? .backreferenceBackward(group) : .backreference(group))
        }
    }
}
