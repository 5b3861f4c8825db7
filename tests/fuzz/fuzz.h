/* What every libFuzzer harness defines. */
#ifndef EMBER_FUZZ_H
#define EMBER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Called by libFuzzer with each input; returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: called once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
