public import TweakKit

/// Reading and writing: JSON text, TweakKit's parsed `JSONNode`, and ``TweakContent``.
///
/// ```swift
/// let value = try JSONValue(jsonText: #"{"b": [true, null], "a": null}"#)
/// value.jsonText                  // {"b":[true,null],"a":null}
/// value.tweakContent              // .object(["a": .null, "b": .array([.bool(true), .null])])
/// JSONValue.null.tweakContent     // nil: a null value is no tweak value
/// ```
extension JSONValue {
    /// Parses JSON text (nesting at most 512 levels, as all of TweakKit's JSON).
    public init(jsonText: String) throws(JSONSyntaxError) {
        self.init(try JSONParser.parse(Array(jsonText.utf8)))
    }

    /// A parsed node, members in their written order. Recursive: the parser bounds the depth (512).
    package init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(JSONValue(element)) }
            self = .array(values)
        case .object(let members):
            // The parser refuses a repeated key, so the members are taken as they are (a check
            // for repeats here, one scan per member, made loading quadratic in the features).
            var values: [Member] = []
            values.reserveCapacity(members.count)
            for member in members { values.append(Member(key: member.key, value: JSONValue(member.value))) }
            self = .object(values)
        }
    }

    /// A tweak value as a JSON value; object members sorted by key, since a Swift dictionary has no order.
    public init(_ content: TweakContent) {
        // A scalar (what most attributes are) converts without the walk's stacks.
        switch content {
        case .null: self = .null; return
        case .bool(let flag): self = .bool(flag); return
        case .int(let number): self = .int(number); return
        case .float(let number): self = .double(Double(number)); return
        case .double(let number): self = .double(number); return
        case .string(let text): self = .string(text); return
        case .array, .object: break
        }
        var builder = Builder()
        // Values still to visit, or a marker closing a container: walked, not recursed.
        enum Step { case visit(TweakContent), key(String), endArray, endObject }
        var steps: [Step] = [.visit(content)]
        while let step = steps.popLast() {
            switch step {
            case .key(let key): builder.add(.key(key))
            case .endArray: builder.add(.endArray)
            case .endObject: builder.add(.endObject)
            case .visit(let value):
                switch value {
                case .null: builder.add(.scalar(.null))
                case .bool(let flag): builder.add(.scalar(.bool(flag)))
                case .int(let number): builder.add(.scalar(.int(number)))
                case .float(let number): builder.add(.scalar(.double(Double(number))))
                case .double(let number): builder.add(.scalar(.double(number)))
                case .string(let text): builder.add(.scalar(.string(text)))
                case .array(let elements):
                    builder.add(.beginArray(count: elements.count))
                    steps.append(.endArray)
                    for element in elements.reversed() { steps.append(.visit(element)) }
                case .object(let members):
                    builder.add(.beginObject(count: members.count))
                    steps.append(.endObject)
                    for key in members.keys.sorted().reversed() {
                        guard let member = members[key] else { continue }
                        steps.append(.visit(member))
                        steps.append(.key(key))
                    }
                }
            }
        }
        self = builder.result ?? .null
    }

    /// The value as a ``TweakContent``: `null` has none (`nil`); a `null` element or member
    /// inside is kept as ``TweakContent/null``.
    public var tweakContent: TweakContent? {
        tweakContent(wholeDoublesAsInts: false)
    }

    /// The value as a ``TweakContent``, as ``tweakContent``; with `wholeDoublesAsInts`, a double
    /// with no fraction that fits in an `Int` becomes that `Int`, as for a reader to which every
    /// number is a double (JsonLogic's `3.0` is the variant value 3).
    ///
    /// ```swift
    /// JSONValue.array([3.0, 2.5]).tweakContent(wholeDoublesAsInts: true)   // .array([.int(3), .double(2.5)])
    /// ```
    public func tweakContent(wholeDoublesAsInts: Bool) -> TweakContent? {
        if isNull { return nil }
        enum Partial { case array([TweakContent]), object([String: TweakContent], key: String?) }
        var stack: [Partial] = []
        var result: TweakContent?
        func finish(_ value: TweakContent) {
            switch stack.popLast() {
            case nil: result = value
            case .array(var elements)?:
                elements.append(value)
                stack.append(.array(elements))
            case .object(var members, let key)?:
                members[key ?? ""] = value
                stack.append(.object(members, key: nil))
            }
        }
        walk { event in
            switch event {
            case .scalar(let value):
                switch value {
                case .bool(let flag): finish(.bool(flag))
                case .int(let number): finish(.int(number))
                case .double(let number):
                    if wholeDoublesAsInts, number == number.rounded(), let int = Int(exactly: number) {
                        finish(.int(int))
                    } else {
                        finish(.double(number))
                    }
                case .string(let text): finish(.string(text))
                default: finish(.null)
                }
            case .beginArray(let count):
                var elements: [TweakContent] = []
                elements.reserveCapacity(count)
                stack.append(.array(elements))
            case .beginObject(let count):
                stack.append(.object(Dictionary(minimumCapacity: count), key: nil))
            case .key(let key):
                if case .object(let members, _)? = stack.popLast() { stack.append(.object(members, key: key)) }
            case .endArray:
                if case .array(let elements)? = stack.popLast() { finish(.array(elements)) }
            case .endObject:
                if case .object(let members, _)? = stack.popLast() { finish(.object(members)) }
            }
        }
        return result
    }

    /// Compact JSON text, members in order; numbers as JavaScript writes them (non-finite ones as null).
    public var jsonText: String {
        write(indent: nil)
    }

    /// Pretty-printed JSON text with two-space indentation.
    public var prettyJSONText: String {
        write(indent: 2)
    }

    private func write(indent: Int?) -> String {
        var output = ""
        // Per open container: whether it has written an element yet.
        var written: [Bool] = []
        func newline(_ level: Int) {
            guard let indent else { return }
            output += "\n" + String(repeating: " ", count: indent * level)
        }
        // Before a value: a separator and line break inside an array (an object's key did it for a member).
        var afterKey = false
        func beforeValue() {
            if afterKey { afterKey = false; return }
            guard let last = written.last else { return }
            if last { output += "," }
            written[written.count - 1] = true
            newline(written.count)
        }
        walk { event in
            switch event {
            case .scalar(let value):
                beforeValue()
                switch value {
                case .null: output += "null"
                case .bool(let flag): output += flag ? "true" : "false"
                case .int(let number): output += String(number)
                case .double(let number): output += number.isFinite ? JavaScriptNumber.string(number) : "null"
                case .string(let text): JSONWriter.writeString(text, into: &output)
                case .array, .object: break
                }
            case .beginArray:
                beforeValue()
                output += "["
                written.append(false)
            case .beginObject:
                beforeValue()
                output += "{"
                written.append(false)
            case .key(let key):
                if written[written.count - 1] { output += "," }
                written[written.count - 1] = true
                newline(written.count)
                JSONWriter.writeString(key, into: &output)
                output += indent == nil ? ":" : ": "
                afterKey = true
            case .endArray, .endObject:
                let hadElements = written.removeLast()
                if hadElements { newline(written.count) }
                output += { if case .endArray = event { "]" } else { "}" } }()
            }
        }
        return output
    }
}
