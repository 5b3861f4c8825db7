/* The processors of the machine as the ACPI MADT (ACPI 6.5, section 5.2.12) lists them:
 * Processor Local APIC and Processor Local x2APIC entries, and the topology fields that
 * split an APIC ID into package, core and thread. Pure logic over a table given with its
 * length: no memory outside it is read. */
#ifndef QEMU_PURE_MADT_H
#define QEMU_PURE_MADT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One processor the firmware may start. */
struct madt_cpu {
	uint32_t apic_id;
};

/* What madt_cpus found. */
struct madt_result {
	uint32_t lapic_address; /* the local APIC's MMIO base the MADT names */
	size_t count;		/* enabled processors (only the first `max` are stored) */
};

/* Lists the enabled processors of the MADT at table (length bytes) in table order.
 * Disabled entries (hot-pluggable, not present) are left out, and so is an APIC ID seen
 * before. False for a table that is not a MADT or whose entries run past its end. */
bool madt_cpus(const void *table, size_t length, struct madt_cpu *cpus, size_t max,
	       struct madt_result *result);

/* The place of a processor: the low thread_bits of its APIC ID are the thread, the next
 * core_bits the core, the rest the package (CPUID leaf 0xB's shifts). */
struct cpu_location {
	uint32_t package, core, thread;
};
struct cpu_location madt_location(uint32_t apic_id, unsigned thread_bits, unsigned core_bits);

#endif
