/* Power-loss test of authenticated writes (varstore/var_auth.c over the store): PK
 * enrolment and deletion, KEK, db and dbx writes, signature-list appends, and a private
 * authenticated variable, with fake signatures (fake_pkcs7.h), on a simulated NOR flash
 * small enough to compact often. Before every program or erase step the flash is copied
 * as a cut before the step and as a cut in its middle; each copy is mounted like after a
 * reboot: every variable holds its old value or (for the one being written) its new one,
 * SetupMode and SecureBoot follow the PK found, timestamps survive (a replay of a stored
 * variable's last write is refused), nothing is damaged and no write needs a 0 bit to
 * become 1. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "fake_pkcs7.h"
#include "test_varstore.h"
#include <ember/lib/guids.h>

#define FLASH_SIZE (2 * 8192)
#define FLASH_BLOCK 1024
#define CALLS 1500
#define MAX_VALUE 1200
#define NBRA                                                                                       \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)
#define APPEND EFI_VARIABLE_APPEND_WRITE

enum { V_PK, V_KEK, V_DB, V_DBX, V_PRIVATE, VARS };

static const CHAR16 *const names[VARS] = {u"PK", u"KEK", u"db", u"dbx", u"Diary"};

/* What each variable holds: its value and its timestamp (a count of seconds). */
struct model {
	UINT32 size[VARS]; /* 0: absent */
	UINT8 data[VARS][MAX_VALUE];
	UINT32 time[VARS];
};

static struct {
	struct model before; /* before the call in progress */
	struct model after;  /* once it is done */
	int var;	     /* the variable it changes, or -1 */
	struct fake_key pk, kek, diarist;
	struct nor_sim copy;
	UINT64 cut_points, failures, steps;
	UINT32 clock, rng;
	UINT8 buf[0x2000];
} pa;

static const EFI_GUID *guid_of(int v)
{
	static EFI_GUID private_guid;

	if (v == V_PK || v == V_KEK)
		return &efi_global_variable_guid;
	if (v == V_PRIVATE)
		return (private_guid = test_var_guid(5), &private_guid);
	return &efi_image_security_database_guid;
}

static UINT32 rnd(UINT32 n)
{
	pa.rng = pa.rng * 1664525u + 1013904223u;
	return (pa.rng >> 8) % n;
}

static void fail(const char *what, int v)
{
	if (pa.failures++ < 10)
		printf("    authenticated power loss at step %llu: %s (%d)\n",
		       (unsigned long long)pa.steps, what, v);
}

static bool holds(struct var_service *svc, int v, const struct model *m)
{
	static UINT8 got[MAX_VALUE];
	UINTN size = sizeof(got);
	UINT32 attributes = 0;
	EFI_STATUS status = var_get(svc, names[v], guid_of(v), &attributes, &size, got);

	if (!m->size[v])
		return status == EFI_NOT_FOUND;
	return status == EFI_SUCCESS && attributes == NBRA && size == m->size[v] &&
	       !memcmp(got, m->data[v], size);
}

/* The data of an authenticated write of variable v at time t. */
static UINT32 auth_data(int v, UINT32 attributes, UINT32 t, const void *payload, UINT32 size)
{
	/* db and dbx: signed by the KEK once there is one, by the PK before. */
	const struct fake_key *k = v == V_PRIVATE			  ? &pa.diarist
				   : v <= V_KEK || !pa.before.size[V_KEK] ? &pa.pk
									  : &pa.kek;

	return fake_auth_write(pa.buf, k, names[v], guid_of(v), attributes, (UINT16)(2000 + t / 60),
			       (UINT8)(t % 60), payload, size);
}

/* A replay of a variable's last write must be refused: its timestamp survived. */
static void check_replay(struct var_service *svc, int v, const struct model *m)
{
	UINT32 n;

	if (!m->size[v])
		return;
	n = auth_data(v, NBRA, m->time[v], m->data[v], m->size[v]);
	if (var_set(svc, names[v], guid_of(v), NBRA, n, pa.buf) != EFI_SECURITY_VIOLATION)
		fail("a replayed write is accepted", v);
}

static UINT8 read_u8(struct var_service *svc, const CHAR16 *name)
{
	UINT8 value = 0xee;
	UINTN size = 1;

	var_get(svc, name, &efi_global_variable_guid, NULL, &size, &value);
	return value;
}

static void check_state(struct var_service *svc)
{
	UINTN size = 0;
	bool pk = var_get(svc, u"PK", &efi_global_variable_guid, NULL, &size, NULL) ==
		  EFI_BUFFER_TOO_SMALL;

	for (int v = 0; v < VARS; v++) {
		bool old = holds(svc, v, &pa.before);
		bool new = v == pa.var &&holds(svc, v, &pa.after);
		if (!old && !new)
			fail("a variable holds neither its old nor its new value", v);
		else if (v != pa.var)
			check_replay(svc, v, &pa.before);
	}
	if (read_u8(svc, u"SetupMode") != !pk || read_u8(svc, u"SecureBoot") != pk)
		fail("SetupMode and SecureBoot do not follow the PK", V_PK);
}

static void reboot_and_check(void)
{
	struct test_vars t;
	EFI_STATUS status = test_vars_mount(&t, &pa.copy.dev, 0);

	pa.cut_points++;
	if (EFI_ERROR(status)) {
		fail("mounting fails", -1);
	} else {
		fake_crypto_install(&t.svc);
		if (EFI_ERROR(var_globals_install(&t.svc)))
			fail("the firmware's variables cannot be set", -1);
		if (t.svc.nv.report.damaged || t.svc.nv.report.reformatted)
			fail("a record is damaged or the store formatted again", -1);
		check_state(&t.svc);
	}
	if (pa.copy.violations)
		fail("a write needed a 0 bit to become 1", -1);
	test_vars_unmount(&t);
}

static void cut_here(struct nor_sim *sim, enum nor_op op, UINT32 offset, const void *data,
		     UINT32 size, void *ctx)
{
	(void)ctx;
	pa.steps = sim->steps;
	nor_copy(&pa.copy, sim);
	reboot_and_check();
	nor_copy(&pa.copy, sim);
	nor_tear(&pa.copy, op, offset, data, size, (UINT32)sim->steps);
	reboot_and_check();
}

/* A new value for a signature database: one to three SHA-256 entries, some of them often
 * already there (appends must not add those again). */
static UINT32 new_hashes(UINT8 *out)
{
	return fake_esl_sha256(out, (UINT8)rnd(12), 1 + rnd(3));
}

/* Plans the next call: the variable, its payload in esl, whether it appends; fills
 * pa.after with the expected result. Returns the payload's size. */
static UINT32 plan(int *v, bool *append, UINT8 *esl)
{
	UINT32 size = 0, kind = rnd(100);

	*append = false;
	*v = kind < 8 ? V_PK : kind < 16 ? V_KEK : kind < 50 ? V_DB : kind < 65 ? V_DBX : V_PRIVATE;
	pa.after = pa.before;
	if (*v == V_PK && pa.before.size[V_PK])
		size = 0; /* PK deletion: back to Setup Mode */
	else if (*v == V_PK)
		size = fake_esl_x509(esl, &pa.pk, 1);
	else if (*v == V_KEK)
		size = fake_esl_x509(esl, &pa.kek, 2);
	else if (*v == V_PRIVATE)
		memset(esl, (int)rnd(256), size = 1 + rnd(100));
	else if (rnd(10) == 0)
		size = 0; /* deletion */
	else
		size = new_hashes(esl);
	*append = size && *v != V_PK && *v != V_KEK && pa.before.size[*v] && rnd(2);
	if (*append && pa.before.size[*v] + size > MAX_VALUE)
		*append = false, size = new_hashes(esl);
	return size;
}

/* What the variable holds after the call (appends of lists add only new entries). */
static void expect_after(int v, bool append, const UINT8 *esl, UINT32 size)
{
	UINT8 *d = pa.after.data[v];
	UINT32 old = append ? pa.before.size[v] : 0;

	pa.after.time[v] = pa.clock;
	if (!append) {
		memcpy(d, esl, size);
		pa.after.size[v] = size;
		return;
	}
	if (v == V_PRIVATE) {
		memcpy(d + old, esl, size);
		pa.after.size[v] = old + size;
		return;
	}
	/* One list of SHA-256 entries: keep those not in the old value. */
	UINT32 at = old + 28, count = 0, n = (size - 28) / 48;
	for (UINT32 i = 0; i < n; i++) {
		const UINT8 *e = esl + 28 + 48 * i;
		bool there = false;
		for (UINT32 j = 0; j + 48 <= old && !there; j++)
			there = !memcmp(d + j, e, 48) && j >= 28;
		if (!there)
			memcpy(d + at + 48 * count++, e, 48);
	}
	if (count) {
		memcpy(d + old, esl, 28);
		UINT32 list = 28 + 48 * count;
		memcpy(d + old + 16, &list, 4);
	}
	pa.after.size[v] = count ? at + 48 * count : old;
}

static void run_call(struct var_service *svc)
{
	static UINT8 esl[MAX_VALUE];
	bool append;
	int v;
	UINT32 size = plan(&v, &append, esl), n, attributes = NBRA | (append ? APPEND : 0);
	EFI_STATUS status;

	pa.clock++;
	expect_after(v, append, esl, size);
	pa.var = v;
	n = auth_data(v, attributes, pa.clock, esl, size);
	status = var_set(svc, names[v], guid_of(v), attributes, n, pa.buf);
	if (status == EFI_OUT_OF_RESOURCES || (status == EFI_NOT_FOUND && !size))
		return;
	if (status != EFI_SUCCESS) {
		printf("    SetVariable: %s\n",
		       status == EFI_SECURITY_VIOLATION ? "violation" : "other");
		fail("SetVariable failed", v);
		return;
	}
	pa.before = pa.after;
}

TEST(varstore_power_loss_authenticated_writes)
{
	struct nor_sim flash;
	struct test_vars t;

	memset(&pa, 0, sizeof(pa));
	pa.var = -1;
	pa.rng = 777;
	fake_key_init(&pa.pk, "Power PK");
	fake_key_init(&pa.kek, "Power KEK");
	fake_key_init(&pa.diarist, "Diarist");
	nor_init(&flash, FLASH_SIZE, FLASH_BLOCK);
	ASSERT_STATUS(test_vars_mount(&t, &flash.dev, 0), EFI_SUCCESS);
	fake_crypto_install(&t.svc);
	ASSERT_STATUS(var_globals_install(&t.svc), EFI_SUCCESS);
	flash.hook = cut_here;
	for (UINT32 calls = 0; calls < CALLS; calls++)
		run_call(&t.svc);
	pa.var = -1;
	nor_copy(&pa.copy, &flash);
	reboot_and_check();
	printf("    authenticated power loss: %u calls, %u compactions, %llu steps, %llu cut "
	       "points\n",
	       CALLS, t.svc.nv.compactions, (unsigned long long)flash.steps,
	       (unsigned long long)pa.cut_points);
	EXPECT_EQ(pa.failures, 0);
	EXPECT_EQ(flash.violations, 0);
	EXPECT(t.svc.nv.compactions >= 5);
	test_vars_unmount(&t);
	nor_free(&pa.copy);
	nor_free(&flash);
}
