import ArgumentParser
import TweakCodegenCommands

// The build plugins' tool: `tweak generate` without the rest of the `tweak` command's dependencies,
// so a package that generates accessors builds only TweakKit and the generator.
Generate.main()
