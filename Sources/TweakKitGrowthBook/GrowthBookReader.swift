public import TweakKitEngineSupport

/// Reads typed fields out of JSON objects, naming the path of anything of the wrong type.
struct GrowthBookReader {
    let source: String

    func fail(_ path: String, _ message: String) -> GrowthBookPayloadError {
        GrowthBookPayloadError(source: source, path: path, message: message)
    }

    func object(_ value: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookMember] {
        guard case .object(let members) = value else { throw fail(path, "expected an object, found \(value.kindName)") }
        return members
    }

    /// A member that is absent or `null` is `nil`.
    private func field(_ object: GrowthBookValue, _ key: String) -> GrowthBookValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func string(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> String? {
        guard let value = field(object, key) else { return nil }
        guard case .string(let text) = value else { throw fail("\(path).\(key)", "expected a string, found \(value.kindName)") }
        return text
    }

    func number(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> Double? {
        guard let value = field(object, key) else { return nil }
        guard let number = value.number else { throw fail("\(path).\(key)", "expected a number, found \(value.kindName)") }
        return number
    }

    func int(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> Int? {
        guard let number = try number(object, key, path) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw fail("\(path).\(key)", "expected an integer, found \(number)") }
        return Int(number)
    }

    func bool(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> Bool? {
        guard let value = field(object, key) else { return nil }
        guard case .bool(let flag) = value else { throw fail("\(path).\(key)", "expected true or false, found \(value.kindName)") }
        return flag
    }

    func array(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookValue]? {
        guard let value = field(object, key) else { return nil }
        guard case .array(let elements) = value else { throw fail("\(path).\(key)", "expected an array, found \(value.kindName)") }
        return elements
    }

    func condition(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookValue? {
        guard let value = field(object, key) else { return nil }
        guard case .object = value else { throw fail("\(path).\(key)", "expected a condition object, found \(value.kindName)") }
        return value
    }

    func numbers(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> [Double]? {
        guard let elements = try array(object, key, path) else { return nil }
        var numbers: [Double] = []
        for (index, element) in elements.enumerated() {
            guard let number = element.number else { throw fail("\(path).\(key)[\(index)]", "expected a number, found \(element.kindName)") }
            numbers.append(number)
        }
        return numbers
    }

    func range(_ value: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookRange {
        guard let pair = value.array, pair.count == 2, let start = pair[0].number, let end = pair[1].number else {
            throw fail(path, "expected a range [start, end], found \(value.jsonText)")
        }
        return GrowthBookRange(start: start, end: end)
    }

    func ranges(_ object: GrowthBookValue, _ key: String, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookRange]? {
        guard let elements = try array(object, key, path) else { return nil }
        var ranges: [GrowthBookRange] = []
        for (index, element) in elements.enumerated() { ranges.append(try range(element, "\(path).\(key)[\(index)]")) }
        return ranges
    }

    func namespace(_ object: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookNamespace? {
        guard let elements = try array(object, "namespace", path) else { return nil }
        guard elements.count == 3, let id = elements[0].string, let start = elements[1].number, let end = elements[2].number else {
            throw fail("\(path).namespace", "expected [id, start, end], found \(GrowthBookValue.array(elements).jsonText)")
        }
        return GrowthBookNamespace(id: id, start: start, end: end)
    }

    func filters(_ object: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookFilter]? {
        guard let elements = try array(object, "filters", path) else { return nil }
        var filters: [GrowthBookFilter] = []
        for (index, element) in elements.enumerated() {
            let here = "\(path).filters[\(index)]"
            _ = try self.object(element, here)
            filters.append(GrowthBookFilter(
                seed: try string(element, "seed", here) ?? "",
                ranges: try ranges(element, "ranges", here) ?? [],
                attribute: try string(element, "attribute", here),
                hashVersion: try int(element, "hashVersion", here)
            ))
        }
        return filters
    }

    func parentConditions(_ object: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookParentCondition]? {
        guard let elements = try array(object, "parentConditions", path) else { return nil }
        var parents: [GrowthBookParentCondition] = []
        for (index, element) in elements.enumerated() {
            let here = "\(path).parentConditions[\(index)]"
            _ = try self.object(element, here)
            guard let id = try string(element, "id", here) else { throw fail(here, "a prerequisite needs an \"id\"") }
            parents.append(GrowthBookParentCondition(
                id: id, condition: try condition(element, "condition", here) ?? .object([]), gate: try bool(element, "gate", here) ?? false
            ))
        }
        return parents
    }

    func meta(_ object: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> [GrowthBookValue]? {
        guard let elements = try array(object, "meta", path) else { return nil }
        for (index, element) in elements.enumerated() { _ = try self.object(element, "\(path).meta[\(index)]") }
        return elements
    }

    func rule(_ value: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookRule {
        _ = try object(value, path)
        var rule = GrowthBookRule()
        rule.id = try string(value, "id", path)
        rule.condition = try condition(value, "condition", path)
        rule.parentConditions = try parentConditions(value, path)
        rule.filters = try filters(value, path)
        // A `force` of null forces nothing (as the Python SDK reads it).
        rule.force = value["force"].flatMap { $0.isNull ? nil : $0 }
        rule.variations = try array(value, "variations", path)
        rule.contextualVariations = try array(value, "contextualVariations", path)
        rule.contextualBanditRef = try string(value, "contextualBanditRef", path)
        rule.key = try string(value, "key", path)
        rule.weights = try numbers(value, "weights", path)
        rule.coverage = try number(value, "coverage", path)
        rule.range = try value["range"].flatMap { $0.isNull ? nil : $0 }.map { (range: GrowthBookValue) throws(GrowthBookPayloadError) in try self.range(range, "\(path).range") }
        rule.ranges = try ranges(value, "ranges", path)
        rule.hashAttribute = try string(value, "hashAttribute", path)
        rule.fallbackAttribute = try string(value, "fallbackAttribute", path)
        rule.hashVersion = try int(value, "hashVersion", path)
        rule.seed = try string(value, "seed", path)
        rule.namespace = try namespace(value, path)
        rule.meta = try meta(value, path)
        rule.name = try string(value, "name", path)
        rule.phase = try string(value, "phase", path)
        rule.disableStickyBucketing = try bool(value, "disableStickyBucketing", path) ?? false
        rule.bucketVersion = try int(value, "bucketVersion", path)
        rule.minBucketVersion = try int(value, "minBucketVersion", path)
        if rule.disableStickyBucketing { rule.fallbackAttribute = nil }
        return rule
    }

    func feature(key: String, _ value: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookFeature {
        _ = try object(value, path)
        var rules: [GrowthBookRule] = []
        for (index, element) in (try array(value, "rules", path) ?? []).enumerated() {
            rules.append(try rule(element, "\(path).rules[\(index)]"))
        }
        return GrowthBookFeature(key: key, defaultValue: value["defaultValue"] ?? .null, rules: rules)
    }

    func experiment(_ value: GrowthBookValue, _ path: String) throws(GrowthBookPayloadError) -> GrowthBookExperiment {
        _ = try object(value, path)
        guard let key = try string(value, "key", path) else { throw fail(path, "an experiment needs a \"key\"") }
        var experiment = GrowthBookExperiment(key: key, variations: try array(value, "variations", path) ?? [])
        experiment.weights = try numbers(value, "weights", path)
        experiment.active = try bool(value, "active", path) ?? true
        experiment.status = try string(value, "status", path)
        experiment.coverage = try number(value, "coverage", path)
        experiment.ranges = try ranges(value, "ranges", path)
        experiment.condition = try condition(value, "condition", path)
        experiment.parentConditions = try parentConditions(value, path)
        experiment.namespace = try namespace(value, path)
        experiment.force = try int(value, "force", path)
        experiment.hashAttribute = try string(value, "hashAttribute", path)
        experiment.fallbackAttribute = try string(value, "fallbackAttribute", path)
        experiment.hashVersion = try int(value, "hashVersion", path)
        experiment.meta = try meta(value, path)
        experiment.filters = try filters(value, path)
        experiment.seed = try string(value, "seed", path)
        experiment.name = try string(value, "name", path)
        experiment.phase = try string(value, "phase", path)
        experiment.url = try string(value, "url", path)
        experiment.groups = try array(value, "groups", path)?.compactMap(\.string)
        experiment.disableStickyBucketing = try bool(value, "disableStickyBucketing", path) ?? false
        experiment.bucketVersion = try int(value, "bucketVersion", path)
        experiment.minBucketVersion = try int(value, "minBucketVersion", path)
        return experiment
    }
}

extension GrowthBookValue {
    /// A short name for the kind of value, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Bool"
        case .int, .double: "a number"
        case .string: "a String"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension GrowthBookExperiment {
    /// Reads an experiment written as GrowthBook's SDKs take it (`key`, `variations`, `weights`, …).
    public init(json: GrowthBookValue, source: String = "experiment") throws(GrowthBookPayloadError) {
        self = try GrowthBookReader(source: source).experiment(json, "")
    }
}
