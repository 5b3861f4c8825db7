/* Checks and test registration for test applications that run on firmware.
 *
 * A test is a function registered with APP_TEST(name) in a file that first defines
 * APP_TEST_SUITE (for example "20_event": tests run in suite order, then in source
 * order; the digits only order the suites). Entries live in the linker-grouped PE
 * section .apptest$m between the markers in .apptest$a and .apptest$z.
 *
 * CHECK*() macros count a pass or print a failure with file:line, the expression and
 * what was expected versus what happened; they return whether the check passed.
 *
 * Known divergences: *_KNOWN(..., fw, why) variants keep a specification check that a
 * named firmware is known to break. On a firmware whose vendor string contains `fw`, a
 * failure is counted and printed as KNOWN (not as FAIL); on any other firmware it is an
 * ordinary failure. */
#ifndef APP_LIB_CHECK_H
#define APP_LIB_CHECK_H

#include "app.h"

struct app_test {
	const char *suite;
	const char *name;
	void (*run)(void);
	UINT32 line;
	UINT32 reserved;
};

#define APP_TEST(fn)                                                                               \
	static void test_##fn(void);                                                               \
	__attribute__((used, section(".apptest$m"),                                                \
		       aligned(8))) static const struct app_test app_test_entry_##fn = {           \
	    APP_TEST_SUITE, #fn, test_##fn, __LINE__, 0};                                          \
	static void test_##fn(void)

/* Firmware names for known divergences (matched against ST->FirmwareVendor). */
#define FW_EDK2 "EDK II"

struct check_totals {
	UINT32 passed, failed, known, skipped;
};

extern struct check_totals check_totals;

struct check_site {
	const char *file;
	int line;
	const char *expr;
	const char *known_fw; /* NULL: no known divergence */
	const char *known_why;
};

bool check_true(bool ok, const struct check_site *site);
bool check_status(EFI_STATUS got, EFI_STATUS want, const struct check_site *site);
bool check_status2(EFI_STATUS got, EFI_STATUS a, EFI_STATUS b, const struct check_site *site);
bool check_u64(UINT64 got, UINT64 want, const struct check_site *site);
/* A failure with a free-form explanation (the caller already decided it failed). */
bool check_fail(const struct check_site *site, const char *fmt, ...);

#define CHECK_SITE(expr) (&(const struct check_site){__FILE__, __LINE__, expr, NULL, NULL})
#define CHECK_SITE_KNOWN(expr, fw, why)                                                            \
	(&(const struct check_site){__FILE__, __LINE__, expr, fw, why})

#define CHECK(cond) check_true(!!(cond), CHECK_SITE(#cond))
#define CHECK_STATUS(expr, want) check_status((expr), (want), CHECK_SITE(#expr))
/* Either of two statuses the specification allows. */
#define CHECK_STATUS2(expr, a, b) check_status2((expr), (a), (b), CHECK_SITE(#expr))
#define CHECK_EQ(got, want) check_u64((UINT64)(got), (UINT64)(want), CHECK_SITE(#got " == " #want))
#define CHECK_FAIL(...) check_fail(CHECK_SITE(""), __VA_ARGS__)

#define CHECK_KNOWN(cond, fw, why) check_true(!!(cond), CHECK_SITE_KNOWN(#cond, fw, why))
#define CHECK_STATUS_KNOWN(expr, want, fw, why)                                                    \
	check_status((expr), (want), CHECK_SITE_KNOWN(#expr, fw, why))
#define CHECK_STATUS2_KNOWN(expr, a, b, fw, why)                                                   \
	check_status2((expr), (a), (b), CHECK_SITE_KNOWN(#expr, fw, why))
#define CHECK_EQ_KNOWN(got, want, fw, why)                                                         \
	check_u64((UINT64)(got), (UINT64)(want), CHECK_SITE_KNOWN(#got " == " #want, fw, why))

/* For a check that would crash a firmware known to mishandle it: on that firmware,
 * counts and prints a KNOWN divergence and returns true (the caller then skips the
 * call); elsewhere returns false. */
bool check_known_crash(const struct check_site *site);
#define KNOWN_CRASH(what, fw, why) check_known_crash(CHECK_SITE_KNOWN(what, fw, why))

/* Ends the current test as skipped, printing why (call, then return). */
void check_skip(const char *fmt, ...);

/* Runs every registered test whose suite is in [first, last) by the suite order key
 * (NULL: unbounded); reports each failure as it happens. */
void check_run_suites(const char *first, const char *last);

/* Prints "<label>: N passed, M failed[, K skipped]" (and known divergences before it). */
void check_print_summary(const char *label);

#endif
