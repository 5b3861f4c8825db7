/* Multiprocessor services on QEMU (docs/design.md, "Multiprocessor"): the processors
 * from the MADT, APs started with INIT-SIPI-SIPI for each procedure they run and halted
 * after it, jobs of StartupAllAPs and StartupThisAP, and EFI_MP_SERVICES_PROTOCOL. */
#ifndef QEMU_CPU_MP_H
#define QEMU_CPU_MP_H

#include <stdbool.h>
#include <stdint.h>
#include <efi/protocol/mp_services.h>
#include "cpu/tss.h"

#define MP_MAX_CPUS 64

/* Where an AP is. IDLE: waiting for a SIPI (since power-on or the BSP's INIT); STARTED:
 * INIT-SIPI sent; RUNNING: in its procedure; FINISHED: returned, waiting for the BSP's
 * INIT (then IDLE). */
enum mp_state { MP_IDLE, MP_STARTED, MP_RUNNING, MP_FINISHED };

/* One processor. The trampoline reads stack_top, so it comes first. */
struct mp_cpu {
	uint64_t stack_top;	    /* 0 until the AP's stack is allocated */
	EFI_AP_PROCEDURE procedure; /* what the AP runs next, and its argument */
	void *argument;
	uint32_t state;	      /* enum mp_state, shared with the AP: atomic access */
	uint32_t apic_id;     /* the ProcessorId */
	uint32_t status_flag; /* PROCESSOR_*_BIT */
	bool sipi_again;      /* the second SIPI was sent */
	uint64_t started_ns;  /* when the SIPI was sent */
	uint64_t gdt[6] __attribute__((aligned(16)));
	struct x86_tss tss; /* its own, for the fault handlers' stacks */
};

/* The processors: [0] is the BSP. */
extern struct mp_cpu *mp_cpus[MP_MAX_CPUS];
extern uint32_t mp_cpu_count;

/* mp_start.c: finds the processors (once); false when there is no MADT to list them. */
bool mp_discover(void);
/* Whether the caller runs on the BSP. */
bool mp_on_bsp(void);
/* The caller's processor number, or -1 for a processor not in the list. */
int mp_whoami(void);
/* Sends INIT then SIPI to processor n to run its procedure (state STARTED); false when
 * its stack or the trampoline could not be had. */
bool mp_start_ap(uint32_t n);
/* Sends the second SIPI when processor n has not arrived after a while. */
void mp_nudge_ap(uint32_t n, uint64_t now_ns);
/* Stops processor n with INIT: it waits for a SIPI again (state IDLE). */
void mp_stop_ap(uint32_t n);
/* The package, core and thread of an APIC ID on this machine. */
EFI_CPU_PHYSICAL_LOCATION mp_location(uint32_t apic_id);

/* mp_jobs.c */
EFI_STATUS mp_job_run(uint64_t cpus, EFI_AP_PROCEDURE procedure, void *argument, bool single_thread,
		      EFI_EVENT wait_event, UINTN timeout_us, UINTN **failed_cpu_list,
		      BOOLEAN *finished);
/* Whether processor n runs (or is about to run) a procedure of a job. */
bool mp_busy(uint32_t n);

#endif
