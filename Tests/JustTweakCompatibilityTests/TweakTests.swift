import Testing
import JustTweak

/// `Tweak`, as JustTweak 10.1.1 spells and uses it.
@Suite("Tweak")
struct TweakTests {
    @Test("tweaks with the same attributes are equal; a different value is not", arguments: [
        (true, false), (1, 2), (Float(1.0), Float(2.0)), (1.0, 2.0), ("Test", "Other"),
    ] as [(TweakValue, TweakValue)])
    func equality(value: TweakValue, other: TweakValue) {
        let tweakA = Tweak(feature: "some_feature", variable: "some_variable", value: value, title: nil, group: nil)
        let tweakB = Tweak(feature: "some_feature", variable: "some_variable", value: value, title: nil, group: nil)
        let tweakC = Tweak(feature: "some_feature", variable: "some_variable", value: other, title: nil, group: nil)
        #expect(tweakA == tweakB)
        #expect(tweakA != tweakC)
    }

    @Test("value casts back to the type it was created with")
    func valueCasts() {
        let tweak = Tweak(feature: "f", variable: "v", value: true)
        #expect(tweak.value as? Bool == true)
        #expect(tweak.value as? Int == nil)
        let number = Tweak(feature: "f", variable: "v", value: 42)
        #expect(number.value as! Int == 42)
        let text = Tweak(feature: "f", variable: "v", value: "Hello")
        #expect(text.value as? String == "Hello")
    }

    @Test("conversions from a number are JustTweak's")
    func fromNumber() {
        let tweak = Tweak(feature: "some_feature", variable: "some_variable", value: 3.5, title: nil, group: nil)
        #expect(tweak.doubleValue == 3.5)
        #expect(tweak.floatValue == 3.5)
        #expect(tweak.intValue == 3)
        #expect(tweak.boolValue == false)
        #expect(tweak.stringValue == nil)
    }

    @Test("conversions from a Bool are JustTweak's: numbers read as 0")
    func fromBool() {
        let tweak = Tweak(feature: "some_feature", variable: "some_variable", value: true, title: nil, group: nil)
        #expect(tweak.doubleValue == 0.0)
        #expect(tweak.floatValue == 0.0)
        #expect(tweak.intValue == 0)
        #expect(tweak.boolValue == true)
        #expect(tweak.stringValue == nil)
    }

    @Test("conversions from a String are JustTweak's")
    func fromString() {
        let tweak = Tweak(feature: "some_feature", variable: "some_variable", value: "Hello", title: nil, group: nil)
        #expect(tweak.doubleValue == 0.0)
        #expect(tweak.intValue == 0)
        #expect(tweak.boolValue == false)
        #expect(tweak.stringValue == "Hello")
        let number = Tweak(feature: "some_feature", variable: "some_variable", value: "3.66")
        #expect(number.doubleValue == 3.66)
        #expect(number.stringValue == "3.66")
    }

    @Test("each scalar type round-trips through its own conversion")
    func ownConversions() {
        #expect(Tweak(feature: "f", variable: "v", value: 1).intValue == 1)
        #expect(Tweak(feature: "f", variable: "v", value: Float(1.5)).floatValue == 1.5)
        #expect(Tweak(feature: "f", variable: "v", value: 3.66).doubleValue == 3.66)
    }

    @Test("Int.max and huge numbers clamp where JustTweak trapped")
    func noTrap() {
        #expect(Tweak(feature: "f", variable: "v", value: Int.max).intValue == Int.max)
        #expect(Tweak(feature: "f", variable: "v", value: 1e300).intValue == Int.max)
        #expect(Tweak(feature: "f", variable: "v", value: Double.nan).intValue == 0)
    }

    @Test("title, desc, group, source and displayTitle")
    func metadata() {
        let tweak = Tweak(feature: "f", variable: "v", value: 1, title: "T", description: "D", group: "G", source: "S")
        #expect(tweak.title == "T")
        #expect(tweak.desc == "D")
        #expect(tweak.group == "G")
        #expect(tweak.source == "S")
        #expect(tweak.displayTitle == "T")
        #expect(Tweak(feature: "f", variable: "v", value: 1).displayTitle == "f:v")
    }
}
