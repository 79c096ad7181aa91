/// Runs a ``RegExpProgram`` over UTF-16 code units by backtracking, counting every instruction
/// against a budget shared by the whole search (every start position and lookaround).
struct RegExpMachine {
    struct BudgetExceeded: Error {}

    private enum Frame {
        /// Resume at an instruction and position.
        case resume(Int, Int)
        /// Undo a register write.
        case restore(Int, Int)
    }

    let program: RegExpProgram
    let input: [UInt16]
    var stepsLeft: Int

    /// Whether the pattern matches anywhere in the input (`RegExp.prototype.test`).
    mutating func search() throws(BudgetExceeded) -> Bool {
        let initial = Array(repeating: -1, count: program.registerCount)
        for start in 0...input.count {
            var registers = initial
            if try run(0, at: start, registers: &registers) { return true }
            if program.anchored { break }
        }
        return false
    }

    /// Runs `index` from `start`; on success `registers` hold the captures.
    private mutating func run(_ index: Int, at start: Int, registers: inout [Int]) throws(BudgetExceeded) -> Bool {
        let code = program.programs[index]
        var stack: [Frame] = []
        var pc = 0
        var position = start
        let count = input.count
        while true {
            stepsLeft -= 1
            if stepsLeft < 0 { throw BudgetExceeded() }
            var failed = false
            switch code[pc] {
            case .unit(let unit):
                if position < count && input[position] == unit { position += 1; pc += 1 } else { failed = true }
            case .set(let set):
                if position < count && program.sets[set].contains(input[position]) { position += 1; pc += 1 } else { failed = true }
            case .dot:
                if position < count && !RegExpCharacterSet.isLineTerminator(input[position]) { position += 1; pc += 1 } else { failed = true }
            case .unitBackward(let unit):
                if position > 0 && input[position - 1] == unit { position -= 1; pc += 1 } else { failed = true }
            case .setBackward(let set):
                if position > 0 && program.sets[set].contains(input[position - 1]) { position -= 1; pc += 1 } else { failed = true }
            case .dotBackward:
                if position > 0 && !RegExpCharacterSet.isLineTerminator(input[position - 1]) { position -= 1; pc += 1 } else { failed = true }
            case .split(let first, let second):
                stack.append(.resume(second, position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let register):
                stack.append(.restore(register, registers[register]))
                registers[register] = position
                pc += 1
            case .loopInit(let counter):
                stack.append(.restore(counter, registers[counter]))
                registers[counter] = 0
                pc += 1
            case .loopTest(let counter, let min, let max, let greedy, let body, let exit):
                let done = registers[counter]
                if done < min {
                    pc = body
                } else if done >= max {
                    pc = exit
                } else if greedy {
                    stack.append(.resume(exit, position))
                    pc = body
                } else {
                    stack.append(.resume(body, position))
                    pc = exit
                }
            case .iterationStart(let startRegister, let captures):
                stack.append(.restore(startRegister, registers[startRegister]))
                registers[startRegister] = position
                for register in captures where registers[register] != -1 {
                    stack.append(.restore(register, registers[register]))
                    registers[register] = -1
                }
                pc += 1
            case .iterationEnd(let counter, let startRegister, let min, let loop):
                if registers[counter] >= min && position == registers[startRegister] {
                    failed = true
                } else {
                    stack.append(.restore(counter, registers[counter]))
                    registers[counter] += 1
                    pc = loop
                }
            case .lineStart:
                if position == 0 { pc += 1 } else { failed = true }
            case .lineEnd:
                if position == count { pc += 1 } else { failed = true }
            case .wordBoundary(let negated):
                let before = position > 0 && RegExpCharacterSet.isWord(input[position - 1])
                let after = position < count && RegExpCharacterSet.isWord(input[position])
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .look(let sub, _, let negated):
                // Lookbehind programs run right to left from here, lookaheads left to right.
                var inner = registers
                let found = try run(sub, at: position, registers: &inner)
                if found == negated {
                    failed = true
                } else {
                    if found {
                        // A lookaround is atomic; the captures it made stay.
                        for register in inner.indices where inner[register] != registers[register] {
                            stack.append(.restore(register, registers[register]))
                            registers[register] = inner[register]
                        }
                    }
                    pc += 1
                }
            case .backreference(let group):
                let from = registers[2 * group]
                let to = registers[2 * group + 1]
                if from < 0 || to < 0 {
                    pc += 1
                } else if position + (to - from) <= count && input[from..<to].elementsEqual(input[position..<position + (to - from)]) {
                    position += to - from
                    pc += 1
                } else {
                    failed = true
                }
            case .backreferenceBackward(let group):
                let from = registers[2 * group]
                let to = registers[2 * group + 1]
                if from < 0 || to < 0 {
                    pc += 1
                } else if position - (to - from) >= 0 && input[from..<to].elementsEqual(input[(position - (to - from))..<position]) {
                    position -= to - from
                    pc += 1
                } else {
                    failed = true
                }
            case .match:
                return true
            }
            guard failed else { continue }
            var resumed = false
            while let frame = stack.popLast() {
                switch frame {
                case .restore(let register, let value):
                    registers[register] = value
                case .resume(let target, let at):
                    pc = target
                    position = at
                    resumed = true
                }
                if resumed { break }
            }
            if !resumed { return false }
        }
    }
}
