import JustTweak
import TweakKit

// The generator writes accessors over TweakKit's manager (a JustTweak-flavoured generator is the
// second part of issue #36). The README's `GeneratedTweakAccessor(with: tweakManager)` passes
// JustTweak's manager: the accessor reads the same stack through its TweakKit manager.
extension GeneratedTweakAccessor {
    convenience init(with tweakManager: JustTweak.TweakManager) {
        self.init(tweakManager: tweakManager.tweakKitManager)
    }
}
