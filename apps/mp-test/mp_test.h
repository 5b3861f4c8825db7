/* mp-test: EFI_MP_SERVICES_PROTOCOL (PI 1.8, volume 2, 13.4) on the firmware it runs on.
 * Needs at least two processors (QEMU -smp 2 or more); prints the count it found, runs
 * procedures on every AP through each service and mode, checks every status the spec
 * names for a bad call (also from an AP), and ends with a summary line. */
#ifndef MP_TEST_H
#define MP_TEST_H

#include "../lib/check.h"
#include <efi/protocol/mp_services.h>

#define MP_TEST_MAX_CPUS 64

extern EFI_MP_SERVICES_PROTOCOL *mp;
extern UINTN cpu_count;

/* What each AP did in a procedure (procs.c), by processor number. */
struct ap_record {
	volatile UINT32 runs;	 /* times a procedure ran there */
	volatile UINT32 apic_id; /* CPUID's initial APIC ID, seen there */
	volatile UINTN who;	 /* WhoAmI there */
	volatile UINT32 order;	 /* 1 + its place among the runs of a job */
	EFI_STATUS calls[7];	 /* statuses of services called from there (ap_calls) */
};
extern struct ap_record records[MP_TEST_MAX_CPUS];

void records_clear(void);
/* The initial APIC ID of the running processor (CPUID leaf 1). */
UINT32 current_apic_id(void);
/* Procedures: record who ran (counting the running ones, to see parallel runs and runs
 * one at a time), call services from an AP, spin until released. */
void EFIAPI proc_record(void *arg);
void EFIAPI proc_barrier(void *arg);
void EFIAPI proc_ap_calls(void *arg);
void EFIAPI proc_hold(void *arg);
/* proc_hold spins while this is non-zero (set it before, clear it to release). */
extern volatile UINT32 hold;
/* The most procedures seen running at once. */
extern volatile UINT32 max_running;

/* boot_next.c */
bool mp_test_boot_mode(void);
void mp_test_boot_next(void);
bool mp_test_exit_mode(void);
void mp_test_exit_and_stop(void);

#endif
