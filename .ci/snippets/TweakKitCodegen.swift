import TweakKitCodegen

let config = GeneratorConfiguration(accessorName: "AppTweaks")
