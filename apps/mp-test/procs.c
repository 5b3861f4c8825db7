/* Procedures mp-test runs on the APs. They call nothing but MP services (the only boot
 * service an AP may use) and write only this file's records. */
#include "mp_test.h"

struct ap_record records[MP_TEST_MAX_CPUS];
volatile UINT32 hold;
volatile UINT32 max_running;
static volatile UINT32 running, ran;

#define BARRIER_TSC_TICKS 4000000000ULL /* about a second or two */

void records_clear(void)
{
	mem_set(records, 0, sizeof(records));
	max_running = running = ran = 0;
}

UINT32 current_apic_id(void)
{
	UINT32 a, b, c, d;

	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	return b >> 24;
}

/* Records the AP in its slot; returns the slot (NULL when WhoAmI failed). */
static struct ap_record *enter(void)
{
	UINTN who = MP_TEST_MAX_CPUS;
	UINT32 now = __atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST), seen = max_running;
	struct ap_record *r;

	while (now > seen && !__atomic_compare_exchange_n(&max_running, (UINT32 *)&seen, now, false,
							  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	if (mp->WhoAmI(mp, &who) != EFI_SUCCESS || who >= MP_TEST_MAX_CPUS)
		return NULL;
	r = &records[who];
	r->who = who;
	r->apic_id = current_apic_id();
	r->order = __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&r->runs, 1, __ATOMIC_SEQ_CST);
	return r;
}

static UINT64 rdtsc_now(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (UINT64)hi << 32 | lo;
}

static void leave(void)
{
	__atomic_sub_fetch(&running, 1, __ATOMIC_SEQ_CST);
}

void EFIAPI proc_record(void *arg)
{
	enter();
	leave();
}

/* Waits (bounded) until *arg procedures run at once: only APs running in parallel meet. */
void EFIAPI proc_barrier(void *arg)
{
	UINT32 want = *(UINT32 *)arg;

	enter();
	UINT64 start = rdtsc_now();

	while (running < want && rdtsc_now() - start < BARRIER_TSC_TICKS)
		; /* no pause: under TCG it leaves the translated code each time */
	leave();
}

void EFIAPI proc_ap_calls(void *arg)
{
	struct ap_record *r = enter();
	UINTN n = 0, e = 0;
	EFI_PROCESSOR_INFORMATION info;
	BOOLEAN finished;

	if (r) {
		r->calls[0] = mp->GetNumberOfProcessors(mp, &n, &e);
		r->calls[1] = mp->GetProcessorInfo(mp, 0, &info);
		r->calls[2] = mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL);
		r->calls[3] = mp->StartupThisAP(mp, proc_record, 0, NULL, 0, NULL, &finished);
		r->calls[4] = mp->SwitchBSP(mp, 0, TRUE);
		r->calls[5] = mp->EnableDisableAP(mp, 0, TRUE, NULL);
		r->calls[6] = mp->WhoAmI(mp, NULL);
	}
	leave();
}

void EFIAPI proc_hold(void *arg)
{
	enter();
	while (hold)
		__asm__ __volatile__("pause");
	leave();
}
