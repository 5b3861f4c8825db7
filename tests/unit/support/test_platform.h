/* The unit-test platform (plat_test.c): the platform API over plain memory, for the unit
 * tests and the fuzzers. */
#ifndef EMBER_TEST_PLATFORM_H
#define EMBER_TEST_PLATFORM_H

#include <ember/core/log.h>

/* Starts the core on a fresh memory arena; call once per process. */
void test_platform_init(void);

/* From now on, keeps what is logged at level and above (and drops what was kept), for
 * tests of the debug trail; test_log_text() is the text since. */
void test_log_capture(enum log_level level);
const char *test_log_text(void);
/* Stops keeping the log and puts the level back to the default (warnings). */
void test_log_stop(void);

#endif
