/* The platform under unit tests and fuzzers: RAM from mmap, a clock the tests drive,
 * interrupts as a flag. Deterministic: nothing happens unless a test makes it happen. */
#include "test_platform.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "test.h"
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include <ember/core/log.h>

#define TEST_RAM_BASE 0x40000000ULL /* 1 GiB: low memory, which ASan leaves to programs */
#define TEST_RAM_PAGES (64 * 1024)  /* 256 MiB */

static uint64_t clock_ns = 1000000000ULL;
static bool interrupts_enabled = true;

/* The log kept by test_log_capture: the last bytes written, terminated. */
static char captured[16384];
static size_t captured_length;
static bool capturing;

void plat_log_write(const char *s, size_t n)
{
	if (getenv("EMBER_TEST_LOG"))
		fwrite(s, 1, n, stderr);
	if (!capturing)
		return;
	if (n >= sizeof(captured))
		s += n - (sizeof(captured) - 1), n = sizeof(captured) - 1;
	if (captured_length + n >= sizeof(captured)) {
		size_t drop = captured_length + n - (sizeof(captured) - 1);
		memmove(captured, captured + drop, captured_length - drop);
		captured_length -= drop;
	}
	memcpy(captured + captured_length, s, n);
	captured_length += n;
	captured[captured_length] = 0;
}

void test_log_capture(enum log_level level)
{
	log_threshold = level;
	capturing = true;
	captured_length = 0;
	captured[0] = 0;
}

const char *test_log_text(void)
{
	return captured;
}

void test_log_stop(void)
{
	capturing = false;
	log_threshold = LOG_LEVEL_WARN;
}

/* Each reading moves the clock on a little, so busy-waits end without a test's help. */
uint64_t plat_monotonic_ns(void)
{
	clock_ns += 100;
	return clock_ns;
}

bool plat_interrupts_disable(void)
{
	bool was = interrupts_enabled;
	interrupts_enabled = false;
	return was;
}

void plat_interrupts_enable(void)
{
	interrupts_enabled = true;
}

void test_advance_time_ns(uint64_t ns)
{
	clock_ns += ns;
	if (interrupts_enabled) {
		interrupts_enabled = false;
		core_timer_tick();
		interrupts_enabled = true;
	}
}

uint64_t test_now_ns(void)
{
	return clock_ns;
}

/* Idling lets one millisecond of virtual time pass. */
void plat_idle(void)
{
	test_advance_time_ns(1000000);
}

EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *caps)
{
	*time =
	    (EFI_TIME){.Year = 2026, .Month = 1, .Day = 1, .TimeZone = EFI_UNSPECIFIED_TIMEZONE};
	if (caps)
		*caps = (EFI_TIME_CAPABILITIES){.Resolution = 1, .Accuracy = 50000000};
	return EFI_SUCCESS;
}

EFI_STATUS plat_set_time(const EFI_TIME *time)
{
	return EFI_SUCCESS;
}

static test_reset_handler reset_handler;

void test_set_reset_handler(test_reset_handler handler)
{
	reset_handler = handler;
}

_Noreturn void plat_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, const void *data)
{
	if (reset_handler)
		reset_handler(type, status, size, data);
	fprintf(stderr, "plat_reset(%d) during a unit test\n", (int)type);
	abort();
}

void plat_exit_boot_services(void)
{
}

/* Page tables as an array: the protection each page of the test RAM would have. */
static UINT64 page_protection[TEST_RAM_PAGES];
static bool protect_fails;
static unsigned protect_calls;

EFI_STATUS plat_memory_protect(uint64_t start, uint64_t pages, uint64_t attributes)
{
	protect_calls++;
	if (protect_fails)
		return EFI_OUT_OF_RESOURCES;
	if (start < TEST_RAM_BASE || pages > TEST_RAM_PAGES ||
	    (start - TEST_RAM_BASE) / 4096 > TEST_RAM_PAGES - pages) {
		fprintf(stderr, "plat_memory_protect(0x%llx, %llu) outside the test RAM\n",
			(unsigned long long)start, (unsigned long long)pages);
		abort();
	}
	for (uint64_t i = 0; i < pages; i++)
		page_protection[(start - TEST_RAM_BASE) / 4096 + i] = attributes;
	return EFI_SUCCESS;
}

uint64_t test_page_protection(uint64_t address)
{
	return page_protection[(address - TEST_RAM_BASE) / 4096];
}

void test_memory_protect_fail(bool fail)
{
	protect_fails = fail;
}

unsigned test_memory_protect_calls(void)
{
	return protect_calls;
}

void test_platform_init(void)
{
	static const struct core_memory_range ram[] = {
	    {TEST_RAM_BASE, TEST_RAM_PAGES, EfiConventionalMemory,
	     EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT | EFI_MEMORY_WB},
	};
	/* Executable: tests load and start PE images (the boot manager's). */
	void *p = mmap((void *)TEST_RAM_BASE, TEST_RAM_PAGES * 4096ULL,
		       PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	if (p != (void *)TEST_RAM_BASE) {
		perror("test platform: mmap RAM");
		exit(2);
	}
	struct core_config config = {ram, 1, u"Ember unit tests", 1};
	if (EFI_ERROR(core_init(&config))) {
		fprintf(stderr, "test platform: core_init failed\n");
		exit(2);
	}
}
