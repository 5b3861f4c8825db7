/* Power-loss test of the variable store: a workload of SetVariable calls (creates,
 * updates, appends, deletes; many compactions) runs on a simulated NOR flash. Before
 * every program or erase step the flash is copied twice: once as a power cut just before
 * the step leaves it, once with the step half done (some bytes programmed, one byte half
 * programmed; or a block partly erased). Each copy is mounted like after a reboot: every
 * variable must hold the value it had before the SetVariable in progress or, for the
 * variable that call changes, the new value; nothing may be damaged; the store must take
 * a new write that survives another reboot; and no write may ever need a 0 bit to become
 * 1 again (it would be writing over something not erased). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include <ember/lib/str.h>

#define FLASH_SIZE (2 * 16384)
#define FLASH_BLOCK 2048
#define KEYS 24
#define MAX_VALUE 700
#define CALLS 2400
#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NB (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

struct model {
	UINT32 size[KEYS]; /* 0: absent */
	UINT8 data[KEYS][MAX_VALUE];
};

static struct {
	struct model before; /* the values before the call in progress */
	int key;	     /* the variable it changes, or -1 */
	UINT32 after_size;   /* that variable's value once the call is done */
	UINT8 after[MAX_VALUE];
	bool formatted; /* the initial format is complete */
	struct nor_sim copy;
	UINT64 cut_points, failures, steps;
	UINT32 rng;
} pl;

static UINT32 rnd(UINT32 n)
{
	pl.rng = pl.rng * 1664525u + 1013904223u;
	return (pl.rng >> 8) % n;
}

static void key_name(int k, CHAR16 name[16])
{
	static const CHAR16 prefix[] = u"PowerVar";

	memcpy(name, prefix, sizeof(prefix));
	name[8] = (CHAR16)(u'A' + k / 10);
	name[9] = (CHAR16)(u'0' + k % 10);
	name[10] = 0;
}

static EFI_GUID key_guid(int k)
{
	return test_var_guid((UINT32)k % 3);
}

static UINT32 key_attributes(int k)
{
	return k % 2 ? NB : NBR;
}

static void fail(const char *what, int k)
{
	if (pl.failures++ < 10)
		printf("    power loss at step %llu: %s (variable %d)\n",
		       (unsigned long long)pl.steps, what, k);
}

/* Whether variable k reads as size bytes of data (size 0: absent). */
static bool holds(struct var_service *svc, int k, UINT32 size, const UINT8 *data)
{
	static UINT8 buf[MAX_VALUE + 16];
	CHAR16 name[16];
	EFI_GUID guid = key_guid(k);
	UINTN got = sizeof(buf);
	UINT32 attributes = 0;
	EFI_STATUS status;

	key_name(k, name);
	status = var_get(svc, name, &guid, &attributes, &got, buf);
	if (!size)
		return status == EFI_NOT_FOUND;
	return status == EFI_SUCCESS && got == size && !memcmp(buf, data, size) &&
	       attributes == key_attributes(k);
}

static void check_values(struct var_service *svc)
{
	for (int k = 0; k < KEYS; k++) {
		bool old = holds(svc, k, pl.before.size[k], pl.before.data[k]);
		bool new = k == pl.key &&holds(svc, k, pl.after_size, pl.after);
		if (!old && !new)
			fail("a variable holds neither its old nor its new value", k);
	}
}

/* A new variable after the reboot, then another reboot: it must be there. */
static void check_accepts_writes(struct var_service *svc)
{
	static const UINT8 probe[8] = "probe!!";
	EFI_GUID guid = test_var_guid(9);
	UINT64 max, remaining, largest;
	EFI_STATUS status = var_set(svc, u"Probe", &guid, NBR, sizeof(probe), probe);
	struct test_vars again;
	UINTN size = sizeof(probe);
	UINT8 back[8];

	var_query(svc, NBR, &max, &remaining, &largest);
	if (status == EFI_OUT_OF_RESOURCES && remaining < vstore_record_size(12, 8))
		return; /* legitimately full */
	if (status != EFI_SUCCESS) {
		fail("the store refuses a write after the reboot", -1);
		return;
	}
	if (EFI_ERROR(test_vars_mount(&again, &pl.copy.dev, VSTORE_NO_REFORMAT))) {
		fail("the second reboot cannot mount", -1);
		test_vars_unmount(&again);
		return;
	}
	check_values(&again.svc);
	if (var_get(&again.svc, u"Probe", &guid, NULL, &size, back) != EFI_SUCCESS ||
	    memcmp(back, probe, sizeof(probe)))
		fail("the write after the reboot is lost", -1);
	test_vars_unmount(&again);
}

static void reboot_and_check(void)
{
	struct test_vars t;
	EFI_STATUS status = test_vars_mount(&t, &pl.copy.dev, 0);

	pl.cut_points++;
	if (EFI_ERROR(status)) {
		fail("mounting fails", -1);
	} else {
		if (t.svc.nv.report.damaged)
			fail("a record is damaged", -1);
		if (t.svc.nv.report.reformatted && pl.formatted)
			fail("the store was formatted again", -1);
		check_values(&t.svc);
		check_accepts_writes(&t.svc);
	}
	if (pl.copy.violations)
		fail("a write needed a 0 bit to become 1", -1);
	test_vars_unmount(&t);
}

static void cut_here(struct nor_sim *sim, enum nor_op op, UINT32 offset, const void *data,
		     UINT32 size, void *ctx)
{
	pl.steps = sim->steps;
	nor_copy(&pl.copy, sim);
	reboot_and_check();
	nor_copy(&pl.copy, sim);
	nor_tear(&pl.copy, op, offset, data, size, (UINT32)sim->steps);
	reboot_and_check();
}

/* The next call of the workload: its variable and new value. */
static UINT32 next_call(int *key, bool *append)
{
	int k = (int)rnd(KEYS);
	UINT32 old = pl.before.size[k], size, kind = rnd(100);

	*key = k;
	*append = false;
	if (old && kind < 20)
		return 0; /* delete */
	if (old && kind < 45) {
		size = 1 + rnd(80);
		*append = old + size <= MAX_VALUE;
		if (*append) {
			memcpy(pl.after, pl.before.data[k], old);
			for (UINT32 i = 0; i < size; i++)
				pl.after[old + i] = (UINT8)rnd(256);
			return size;
		}
	}
	size = 1 + rnd(kind < 60 ? MAX_VALUE : 64);
	for (UINT32 i = 0; i < size; i++)
		pl.after[i] = (UINT8)rnd(256);
	return size;
}

static void run_call(struct var_service *svc)
{
	CHAR16 name[16];
	bool append;
	int k;
	UINT32 size = next_call(&k, &append);
	UINT32 old = pl.before.size[k];
	EFI_GUID guid = key_guid(k);
	const UINT8 *data = append ? pl.after + old : pl.after;
	UINT32 attributes = key_attributes(k) | (append ? EFI_VARIABLE_APPEND_WRITE : 0);
	EFI_STATUS status;

	pl.key = k;
	pl.after_size = append ? old + size : size;
	key_name(k, name);
	status = var_set(svc, name, &guid, attributes, size, data);
	if (status == EFI_NOT_FOUND && !old && !size)
		return;
	if (status == EFI_OUT_OF_RESOURCES)
		return;
	if (status != EFI_SUCCESS) {
		fail("SetVariable failed", k);
		return;
	}
	pl.before.size[k] = pl.after_size;
	memcpy(pl.before.data[k], pl.after, pl.after_size);
}

TEST(varstore_power_loss_at_every_step)
{
	struct nor_sim flash;
	struct test_vars t;
	UINT32 calls;

	memset(&pl, 0, sizeof(pl));
	pl.key = -1;
	pl.rng = 12345;
	nor_init(&flash, FLASH_SIZE, FLASH_BLOCK);
	flash.hook = cut_here;
	ASSERT_STATUS(test_vars_mount(&t, &flash.dev, 0), EFI_SUCCESS);
	pl.formatted = true;
	for (calls = 0; calls < CALLS; calls++)
		run_call(&t.svc);
	pl.key = -1;
	nor_copy(&pl.copy, &flash);
	reboot_and_check();
	printf("    varstore power loss: %u SetVariable calls, %u compactions, %llu program/erase "
	       "steps, %llu cut points tried (before and in the middle of every step)\n",
	       calls, t.svc.nv.compactions, (unsigned long long)flash.steps,
	       (unsigned long long)pl.cut_points);
	EXPECT_EQ(pl.failures, 0);
	EXPECT_EQ(flash.violations, 0);
	EXPECT(flash.steps >= 10000);
	EXPECT(t.svc.nv.compactions >= 5);
	test_vars_unmount(&t);
	nor_free(&pl.copy);
	nor_free(&flash);
}
