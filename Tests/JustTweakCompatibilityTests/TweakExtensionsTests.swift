import Foundation
import Testing
import JustTweak

/// `TweakValue` conversions: `String.tweakValue`, `NSNumber` bridging and `==`.
@Suite("TweakValue conversions")
struct TweakExtensionsTests {
    @Test("strings representing Bools become Bools, in any case")
    func stringBools() {
        #expect("true".tweakValue.boolValue)
        #expect(!"false".tweakValue.boolValue)
        #expect("TrUe".tweakValue.boolValue)
        #expect(!"fAlSe".tweakValue.boolValue)
    }

    @Test("strings representing numbers become numbers; others stay strings")
    func stringNumbers() {
        #expect("1.0".tweakValue == 1.0)
        #expect("1".tweakValue == 1)
        #expect("hello".tweakValue == "hello")
        #expect("1.5".tweakValue as? Double == 1.5)
    }

    @Test("numbers and Bools convert to NSNumber, strings do not")
    func toNumber() {
        let int: TweakValue = 1
        let float: TweakValue = Float(1)
        let double: TweakValue = 1.0
        let bool: TweakValue = true
        let string: TweakValue = "Hello"
        #expect(NSNumber(tweakValue: int) == NSNumber(value: 1))
        #expect(NSNumber(tweakValue: float) == NSNumber(value: Float(1)))
        #expect(NSNumber(tweakValue: double) == NSNumber(value: 1.0))
        #expect(NSNumber(tweakValue: bool) == NSNumber(value: true))
        #expect(NSNumber(tweakValue: string) == nil)
    }

    @Test("NSNumber converts back to the tweak value of its type")
    func fromNumber() {
        let tweakValue: TweakValue = true
        #expect(NSNumber(value: true).tweakValue == tweakValue)
        #expect(NSNumber(value: false).tweakValue == false)
        #expect(NSNumber(value: 1).tweakValue == 1)
        #expect(NSNumber(value: 2.5).tweakValue as? Double == 2.5)
        #expect(NSNumber(value: Float(0.5)).tweakValue as? Float == 0.5)
    }

    @Test("== compares numbers by value and strings by text, never a string with a number")
    func equality() {
        let one: TweakValue = 1
        #expect(one == 1.0)
        #expect(one == true)
        #expect(!(one == "1"))
        #expect(!(one == 2))
        #expect("a".tweakValue == "a")
    }
}
