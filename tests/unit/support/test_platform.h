/* The unit-test platform (plat_test.c): the platform API over plain memory, for the unit
 * tests and the fuzzers. */
#ifndef EMBER_TEST_PLATFORM_H
#define EMBER_TEST_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/core/log.h>

/* Starts the core on a fresh memory arena; call once per process. */
void test_platform_init(void);

/* From now on, keeps what is logged at level and above (and drops what was kept), for
 * tests of the debug trail; test_log_text() is the text since. */
void test_log_capture(enum log_level level);
const char *test_log_text(void);
/* Stops keeping the log and puts the level back to the default (warnings). */
void test_log_stop(void);

/* The fake page tables of plat_memory_protect: the protection of the page holding address
 * (in the test RAM), how many calls were made, and failing every call from now on. */
uint64_t test_page_protection(uint64_t address);
unsigned test_memory_protect_calls(void);
void test_memory_protect_fail(bool fail);

#endif
