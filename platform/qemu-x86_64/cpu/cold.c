/* The core's cold part (docs/design.md, "The hot and cold split"): the functions a plain boot
 * does not run, linked in place (core.ld's .cold_text) but packed on their own in flash, so
 * that the reset stage unpacks only the rest. Their pages are not present until the first
 * touch of any of them faults; the fault unpacks the whole part (inflate, then the call
 * filter undone, as the reset stage does for the hot part) and the instruction runs again.
 * This file is built without a section per function: its code is hot as a whole, as the
 * fault path must be (core.ld, the Makefile). */
#include <ember/core/core.h>
#include <ember/lib/call_filter.h>
#include <ember/lib/inflate.h>
#include <ember/lib/util.h>
#include "cpu/io.h"
#include "reset/layout.h"
#include "qemu.h"

#define PF_PRESENT 0x1 /* page-fault error code: a protection fault, not a missing page */
#define COLD_TABLES 2  /* 2 MiB pages the cold part may span (split before allocation works) */
#define COLD_STACK_SIZE (20 * 1024) /* inflate needs about 14 KiB */

enum cold_state { COLD_NONE, COLD_ABSENT, COLD_UNPACKING, COLD_PRESENT };

/* Where mkfd put the cold part's stream in flash (it writes these before packing the hot
 * part): its flash address and size. Not const: the compiler must read what mkfd wrote. */
struct cold_stream {
	uint64_t flash, size;
};
struct cold_stream qemu_cold_stream
    __attribute__((section(".data.qemu_cold_stream"), used)) = {1, 1};

extern char __core_cold_start[], __core_cold_code_end[], __core_cold_end[];

static uint64_t cold_tables[COLD_TABLES][512] __attribute__((aligned(4096)));
static uint8_t cold_stack[COLD_STACK_SIZE] __attribute__((aligned(16)));
static volatile uint32_t cold_state;

static uint64_t cold_start(void)
{
	return (uintptr_t)__core_cold_start;
}

static uint64_t cold_end(void)
{
	return (uintptr_t)__core_cold_end;
}

static void say(const char *text, bool serial)
{
	for (const char *c = text; *c; c++) {
		outb(DEBUGCON_PORT, (uint8_t)*c);
		if (serial)
			outb(SERIAL_PORT, (uint8_t)*c);
	}
}

/* The image is damaged after the reset stage checked it: nothing sensible can run. */
static _Noreturn void cold_broken(void)
{
	say("Ember: the core's cold part does not unpack; halted\r\n", true);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

/* A line on the debug console (written here, not through the log, whose code may be what
 * faulted): what made the cold part come in, for scripts/profile-hot and the tests. */
static void say_unpacked(uint64_t address)
{
	char hex[19] = "0x";

	for (int i = 0; i < 16; i++)
		hex[2 + i] = "0123456789abcdef"[(address >> (60 - 4 * i)) & 0xf];
	hex[18] = 0;
	say("cold: the core's cold part unpacked ", false);
	say(address ? "on a touch at " : "(ExitBootServices or an exception report)", false);
	say(address ? hex : "", false);
	say("\n", false);
}

/* On cold_stack: the pages become writable, get the code, then read-only. */
static void unpack(void *unused)
{
	uint64_t size = cold_end() - cold_start();
	size_t produced = 0;

	(void)unused;
	paging_cold_present(cold_start(), cold_end(), true);
	if (!inflate_raw((const uint8_t *)(uintptr_t)qemu_cold_stream.flash,
			 (size_t)qemu_cold_stream.size, (uint8_t *)(uintptr_t)cold_start(),
			 (size_t)size, &produced) ||
	    produced != size)
		cold_broken();
	call_filter_decode((uint8_t *)(uintptr_t)cold_start(),
			   (size_t)((uintptr_t)__core_cold_code_end - cold_start()));
	paging_cold_present(cold_start(), cold_end(), false);
}

void cold_prepare(void)
{
	if (cold_end() == cold_start() || qemu_cold_stream.size == 0)
		return;
	if (!paging_cold_absent(cold_start(), cold_end(), cold_tables, COLD_TABLES)) {
		/* Too big to split without allocating: unpacked now, slower but the same. */
		cold_state = COLD_ABSENT;
		cold_unpack(0);
		return;
	}
	cold_state = COLD_ABSENT;
}

bool cold_is_absent(uint64_t address)
{
	return (cold_state == COLD_ABSENT || cold_state == COLD_UNPACKING) &&
	       address >= cold_start() && address < cold_end();
}

void cold_unpack(uint64_t address)
{
	uint32_t expected = COLD_ABSENT;
	uint64_t flags, here = (uintptr_t)&expected;

	if (cold_state == COLD_NONE || cold_state == COLD_PRESENT)
		return;
	/* A fault inside the unpacking itself cannot be mended by waiting for it. */
	if (here - (uintptr_t)cold_stack < sizeof(cold_stack))
		cold_broken();
	if (__atomic_compare_exchange_n(&cold_state, &expected, COLD_UNPACKING, false,
					__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		/* Only inline code from here (what it calls: .text, hot): a call into the cold
		 * part would fault again. */
		flags = read_flags();
		cpu_cli();
		call_on_stack(unpack, NULL, cold_stack + sizeof(cold_stack));
		__atomic_store_n(&cold_state, COLD_PRESENT, __ATOMIC_RELEASE);
		say_unpacked(address);
		if (flags & FLAGS_IF)
			cpu_sti();
		return;
	}
	/* Another processor is unpacking it (an AP ran into it as the BSP did). */
	while (__atomic_load_n(&cold_state, __ATOMIC_ACQUIRE) == COLD_UNPACKING)
		__builtin_ia32_pause();
}

bool cold_fault(uint64_t error_code, uint64_t cr2)
{
	if (cold_state == COLD_NONE || (error_code & PF_PRESENT) || cr2 < cold_start() ||
	    cr2 >= cold_end())
		return false;
	cold_unpack(cr2);
	return true;
}
