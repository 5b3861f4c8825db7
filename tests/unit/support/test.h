/* A small unit-test framework: TEST() registers a function through a linker section,
 * EXPECT*() record failures and carry on, ASSERT*() end the current test. */
#ifndef EMBER_TEST_H
#define EMBER_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <efi/status.h>
#include <efi/runtime_services.h>

struct unit_test {
	const char *name;
	void (*run)(void);
	const char *file;
};

/* ASan must not pad these: the runner walks the section as an array. */
#define TEST(fn)                                                                                   \
	static void fn(void);                                                                      \
	__attribute__((used, section("unit_tests"), aligned(8),                                    \
		       no_sanitize("address"))) static const struct unit_test unit_test_##fn = {   \
	    #fn, fn, __FILE__};                                                                    \
	static void fn(void)

bool test_check(bool ok, const char *expr, const char *file, int line, bool fatal);
bool test_check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, const char *file,
		    int line, bool fatal);
bool test_check_status(EFI_STATUS got, EFI_STATUS want, const char *expr, const char *file,
		       int line, bool fatal);

#define EXPECT(c) test_check(!!(c), #c, __FILE__, __LINE__, false)
#define ASSERT(c) test_check(!!(c), #c, __FILE__, __LINE__, true)
#define EXPECT_EQ(a, b)                                                                            \
	test_check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__, false)
#define ASSERT_EQ(a, b)                                                                            \
	test_check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__, true)
#define EXPECT_STATUS(e, s) test_check_status((e), (s), #e, __FILE__, __LINE__, false)
#define ASSERT_STATUS(e, s) test_check_status((e), (s), #e, __FILE__, __LINE__, true)

/* Runs fn in a child process, a copy of the whole firmware: for tests that change what
 * every other test shares (variables, handles, boot services). Its checks count in the
 * child; the test fails when the child reports a failure or dies. */
bool test_run_isolated(void (*fn)(void), const char *what, const char *file, int line);
#define RUN_ISOLATED(fn) test_run_isolated(fn, #fn, __FILE__, __LINE__)

/* The unit-test platform's controllable clock: advancing it runs the timer tick. */
void test_advance_time_ns(uint64_t ns);
uint64_t test_now_ns(void);

/* Called by the platform's reset instead of ending the process; it should not return (a
 * test longjmps out of it): if it does, or with none (NULL), a reset aborts the test run. */
typedef void (*test_reset_handler)(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size,
				   const void *data);
void test_set_reset_handler(test_reset_handler handler);

/* The unit-test platform keeps the wake-up alarm it is given; this makes an enabled one
 * ring (GetWakeupTime then reports it pending until SetWakeupTime acknowledges it). */
void test_ring_wakeup_alarm(void);

#endif
