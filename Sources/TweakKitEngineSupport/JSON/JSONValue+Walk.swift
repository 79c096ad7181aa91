/// A walk over a ``JSONValue`` in document order with an explicit stack: equality, hashing,
/// conversion and writing use it so that no nesting depth can overflow the call stack.
///
/// ```swift
/// var count = 0
/// JSONValue.array([1, [2, 3]]).walk { event in if case .scalar = event { count += 1 } }   // count == 3
/// ```
extension JSONValue {
    /// What the walk meets, in document order.
    package enum WalkEvent {
        /// A value that is neither an array nor an object.
        case scalar(JSONValue)
        /// An array of `count` elements starts; its elements follow, then ``endArray``.
        case beginArray(count: Int)
        case endArray
        /// An object of `count` members starts; each member's ``key`` then its value follow, then ``endObject``.
        case beginObject(count: Int)
        case key(String)
        case endObject
    }

    private enum Frame {
        case array([JSONValue], next: Int)
        case object([Member], next: Int)
    }

    /// Calls `visit` for every event of the value, in document order.
    package func walk(_ visit: (WalkEvent) -> Void) {
        var stack: [Frame] = []
        func enter(_ value: JSONValue) {
            switch value {
            case .array(let elements):
                visit(.beginArray(count: elements.count))
                stack.append(.array(elements, next: 0))
            case .object(let members):
                visit(.beginObject(count: members.count))
                stack.append(.object(members, next: 0))
            default:
                visit(.scalar(value))
            }
        }
        enter(self)
        while let top = stack.popLast() {
            switch top {
            case .array(let elements, let next):
                if next == elements.count {
                    visit(.endArray)
                } else {
                    stack.append(.array(elements, next: next + 1))
                    enter(elements[next])
                }
            case .object(let members, let next):
                if next == members.count {
                    visit(.endObject)
                } else {
                    stack.append(.object(members, next: next + 1))
                    visit(.key(members[next].key))
                    enter(members[next].value)
                }
            }
        }
    }

    /// Builds a value from walk events: the inverse of ``walk(_:)``, used by conversions that
    /// produce a ``JSONValue`` without recursion.
    package struct Builder {
        private enum Partial {
            case array([JSONValue])
            case object([Member], pendingKey: String?)
        }

        private var stack: [Partial] = []
        /// The finished value, once the outermost container (or a lone scalar) is complete.
        package private(set) var result: JSONValue?

        package init() {}

        package mutating func add(_ event: WalkEvent) {
            switch event {
            case .scalar(let value): finish(value)
            case .beginArray(let count):
                var elements: [JSONValue] = []
                elements.reserveCapacity(count)
                stack.append(.array(elements))
            case .beginObject(let count):
                var members: [Member] = []
                members.reserveCapacity(count)
                stack.append(.object(members, pendingKey: nil))
            case .key(let key):
                if case .object(let members, _)? = stack.popLast() { stack.append(.object(members, pendingKey: key)) }
            case .endArray:
                if case .array(let elements)? = stack.popLast() { finish(.array(elements)) }
            case .endObject:
                if case .object(let members, _)? = stack.popLast() { finish(.object(members)) }
            }
        }

        private mutating func finish(_ value: JSONValue) {
            switch stack.popLast() {
            case nil: result = value
            case .array(var elements)?:
                elements.append(value)
                stack.append(.array(elements))
            case .object(var members, let key)?:
                members.append(Member(key: key ?? "", value: value))
                stack.append(.object(members, pendingKey: nil))
            }
        }
    }
}
