/* Check counting, failure reports and the test runner. */
#include "check.h"

struct check_totals check_totals;

static const struct app_test *current_test;
static bool current_skipped;

__attribute__((used, section(".apptest$a"), aligned(8))) static const struct app_test tests_start;
__attribute__((used, section(".apptest$z"), aligned(8))) static const struct app_test tests_end;

static void report(const struct check_site *site, bool known, const char *fmt, va_list ap)
{
	app_print("%s %s:%d: %s", known ? "KNOWN" : "FAIL", site->file, site->line,
		  site->expr && site->expr[0] ? site->expr : "check");
	if (fmt) {
		app_print(": ");
		app_vprint(fmt, ap);
	}
	app_print("\n");
	if (known)
		app_print("      known divergence of this firmware: %s\n", site->known_why);
}

static bool verdict(bool ok, const struct check_site *site, const char *fmt, ...)
{
	va_list ap;
	bool known;

	if (ok) {
		check_totals.passed++;
		return true;
	}
	known = site->known_fw && app_firmware_is(site->known_fw);
	if (known)
		check_totals.known++;
	else
		check_totals.failed++;
	va_start(ap, fmt);
	report(site, known, fmt, ap);
	va_end(ap);
	return false;
}

bool check_true(bool ok, const struct check_site *site)
{
	return verdict(ok, site, "expected true");
}

bool check_status(EFI_STATUS got, EFI_STATUS want, const struct check_site *site)
{
	return verdict(got == want, site, "expected %r, got %r", want, got);
}

bool check_status2(EFI_STATUS got, EFI_STATUS a, EFI_STATUS b, const struct check_site *site)
{
	return verdict(got == a || got == b, site, "expected %r or %r, got %r", a, b, got);
}

bool check_u64(UINT64 got, UINT64 want, const struct check_site *site)
{
	return verdict(got == want, site, "expected 0x%llx (%llu), got 0x%llx (%llu)",
		       (unsigned long long)want, (unsigned long long)want, (unsigned long long)got,
		       (unsigned long long)got);
}

bool check_fail(const struct check_site *site, const char *fmt, ...)
{
	va_list ap;
	bool known = site->known_fw && app_firmware_is(site->known_fw);

	if (known)
		check_totals.known++;
	else
		check_totals.failed++;
	va_start(ap, fmt);
	report(site, known, fmt, ap);
	va_end(ap);
	return false;
}

bool check_known_crash(const struct check_site *site)
{
	if (!app_firmware_is(site->known_fw))
		return false;
	check_totals.known++;
	app_print("KNOWN %s:%d: %s: not run on this firmware\n", site->file, site->line,
		  site->expr);
	app_print("      known divergence of this firmware: %s\n", site->known_why);
	return true;
}

void check_skip(const char *fmt, ...)
{
	va_list ap;

	current_skipped = true;
	app_print("SKIP %s.%s: ", current_test ? current_test->suite : "?",
		  current_test ? current_test->name : "?");
	va_start(ap, fmt);
	app_vprint(fmt, ap);
	va_end(ap);
	app_print("\n");
}

static int test_cmp(const struct app_test *a, const struct app_test *b)
{
	int c = str8_cmp(a->suite, b->suite);

	return c ? c : (int)a->line - (int)b->line;
}

/* Collects the registered tests (skipping any zero padding) and sorts them. */
static size_t collect(const struct app_test **out, size_t max)
{
	const struct app_test *t = &tests_start + 1, *end = &tests_end;
	size_t n = 0;

	/* The markers are distinct objects to the compiler; hide that from the comparison. */
	__asm__("" : "+r"(t), "+r"(end));
	for (; t < end && n < max; t++) {
		if (!t->run)
			continue;
		size_t i = n++;
		while (i > 0 && test_cmp(out[i - 1], t) > 0) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = t;
	}
	return n;
}

/* A test must hand back the TPL it was given; a leak would poison every later test. */
static void check_tpl_restored(const struct app_test *t)
{
	EFI_TPL tpl = app_bs->RaiseTPL(TPL_HIGH_LEVEL);

	app_bs->RestoreTPL(tpl);
	if (tpl != TPL_APPLICATION) {
		check_totals.failed++;
		app_print("FAIL %s.%s left the TPL at %u\n", t->suite, t->name, (unsigned)tpl);
		app_bs->RestoreTPL(TPL_APPLICATION);
	}
}

static bool in_range(const char *suite, const char *first, const char *last)
{
	return (!first || str8_cmp(suite, first) >= 0) && (!last || str8_cmp(suite, last) < 0);
}

void check_run_suites(const char *first, const char *last)
{
	static const struct app_test *tests[1024];
	size_t n = collect(tests, ARRAY_SIZE(tests));
	const char *suite = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct app_test *t = tests[i];
		if (!in_range(t->suite, first, last))
			continue;
		if (!suite || str8_cmp(suite, t->suite) != 0)
			app_print("== %s\n", t->suite);
		suite = t->suite;
		app_print("-- %s\n", t->name);
		UINT32 failed = check_totals.failed + check_totals.known;
		current_test = t;
		current_skipped = false;
		t->run();
		if (current_skipped)
			check_totals.skipped++;
		check_tpl_restored(t);
		if (check_totals.failed + check_totals.known != failed)
			app_print("   %s: %u problem(s)\n", t->name,
				  (unsigned)(check_totals.failed + check_totals.known - failed));
	}
	current_test = NULL;
}

void check_print_summary(const char *label)
{
	if (check_totals.known)
		app_print("%s: %u known divergence(s) of this firmware from the specification "
			  "(KNOWN lines above)\n",
			  label, (unsigned)check_totals.known);
	if (check_totals.skipped)
		app_print("%s: %u passed, %u failed, %u skipped\n", label,
			  (unsigned)check_totals.passed, (unsigned)check_totals.failed,
			  (unsigned)check_totals.skipped);
	else
		app_print("%s: %u passed, %u failed\n", label, (unsigned)check_totals.passed,
			  (unsigned)check_totals.failed);
}
