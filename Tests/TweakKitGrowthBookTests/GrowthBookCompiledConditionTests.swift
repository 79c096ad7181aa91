import Testing
@testable import TweakKitGrowthBook

/// A rule's condition is compiled at load; these are the shapes where the walker decides from
/// the JSON (operands that are not arrays, operator objects mixed with plain keys, unknown
/// operators, dotted paths, conditions that are not objects): the compiled form must answer as
/// the walker does for every attribute set.
@Suite("GrowthBook compiled conditions")
struct GrowthBookCompiledConditionTests {
    static let conditions: [GrowthBookValue] = [
        [:], 5, "text", .null, [["a": 1]],
        ["$or": 1], ["$or": []], ["$or": [["a": 1], ["b": 2]]], ["$or": [["a": ["$bogus": 1]], ["b": 2]]],
        ["$nor": 1], ["$nor": []], ["$nor": [["a": 1]]], ["$nor": [["a": ["$bogus": 1]]]],
        ["$and": 1], ["$and": []], ["$and": [["a": 1], ["b": 2]]], ["$and": [["a": ["$bogus": 1]], ["b": 2]]],
        ["$not": 5], ["$not": ["a": 1]], ["$not": ["a": ["$bogus": 1]]],
        ["$savedGroups": 1], ["$savedGroup": ["id": "g"]], ["$savedGroup": 3],
        ["a": [:]], ["a": ["$bogus": 1]], ["a": ["$in": [1, 2], "b": 2]], ["a": ["$gt": 0, "$lt": 5]],
        ["a": ["$gt": 0, "$bogus": 5]], ["a": ["$in": 1]], ["a": ["$exists": false]], ["$dollar": 1],
        ["nested.x": 1], ["nested.x": ["$gte": 1]], ["list.length": 2], ["list.0": "x"], ["a": 1, "b": ["$ne": 2]],
        ["a": ["$not": ["$eq": 1]]], ["list": ["$elemMatch": ["$eq": "x"]]], ["list": ["$size": 2]], ["list": ["$all": ["x"]]],
        ["a": ["$inGroup": "g"]], ["a": ["$notInGroup": "g"]],
        ["$savedGroup": ["id": "adults"]], ["$not": ["$savedGroup": ["id": "adults"]]], ["$savedGroup": ["id": "loop"]],
        ["$or": [["$savedGroup": ["id": "adults"]], ["b": 2]]],
    ]

    static let attributeSets: [GrowthBookValue] = [
        [:], ["a": 1, "b": 2], ["a": 3, "b": 2, "$dollar": 1], ["a": "1"], ["a": 1, "b": 3],
        ["nested": ["x": 1], "list": ["x", "y"]], ["nested": ["x": 2], "list": ["y"]], ["nested": 5, "list": 7],
    ]

    /// A list group, a condition group and two condition groups that name each other (a cycle).
    static let savedGroups: GrowthBookValue = [
        "g": [1, 3],
        "adults": ["type": "condition", "condition": ["a": ["$gte": 2]]],
        "loop": ["type": "condition", "condition": ["$savedGroup": ["id": "loop2"]]],
        "loop2": ["type": "condition", "condition": ["$savedGroup": ["id": "loop"]]],
    ]

    @Test("the compiled form answers as the walker, for every condition shape and attribute set")
    func sameAnswers() {
        for condition in Self.conditions {
            let compiled = GrowthBookCompiledCondition(condition)
            for attributes in Self.attributeSets {
                var walker = ConditionEvaluator(savedGroups: Self.savedGroups)
                var reader = ConditionEvaluator(savedGroups: Self.savedGroups)
                let expected = walker.condition(attributes, condition)
                #expect(reader.condition(attributes, compiled) == expected, "\(condition) on \(attributes)")
            }
        }
    }
}
