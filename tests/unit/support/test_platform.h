/* The unit-test platform (plat_test.c): the platform API over plain memory, for the unit
 * tests and the fuzzers. */
#ifndef EMBER_TEST_PLATFORM_H
#define EMBER_TEST_PLATFORM_H

/* Starts the core on a fresh memory arena; call once per process. */
void test_platform_init(void);

#endif
