#ifndef TWEAKKIT_CLIBFUZZER_H
#define TWEAKKIT_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): parses libFuzzer's command line
/// and fuzzes `callback`. The harnesses call it from their own entry point, because SwiftPM links
/// an executable's `main` to the module's entry point on Linux.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
