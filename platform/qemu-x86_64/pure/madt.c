/* The MADT's processor entries, and the topology of an APIC ID (pure/madt.h). */
#include "madt.h"

#define MADT_HEADER_SIZE 44 /* the SDT header, Local Interrupt Controller Address, Flags */
#define MADT_LOCAL_APIC 0
#define MADT_LOCAL_X2APIC 9
#define LOCAL_APIC_ENTRY_SIZE 8
#define LOCAL_X2APIC_ENTRY_SIZE 16
#define CPU_ENABLED 1

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool seen(const struct madt_cpu *cpus, size_t stored, uint32_t apic_id)
{
	for (size_t i = 0; i < stored; i++)
		if (cpus[i].apic_id == apic_id)
			return true;
	return false;
}

/* An enabled processor's APIC ID from entry e (len bytes); false for other entries. */
static bool entry_cpu(const uint8_t *e, size_t len, uint32_t *apic_id)
{
	if (e[0] == MADT_LOCAL_APIC && len >= LOCAL_APIC_ENTRY_SIZE &&
	    (le32(e + 4) & CPU_ENABLED)) {
		*apic_id = e[3];
		return true;
	}
	if (e[0] == MADT_LOCAL_X2APIC && len >= LOCAL_X2APIC_ENTRY_SIZE &&
	    (le32(e + 8) & CPU_ENABLED)) {
		*apic_id = le32(e + 4);
		return true;
	}
	return false;
}

bool madt_cpus(const void *table, size_t length, struct madt_cpu *cpus, size_t max,
	       struct madt_result *result)
{
	const uint8_t *t = table;
	size_t end, off, stored = 0;

	result->count = 0;
	if (length < MADT_HEADER_SIZE || t[0] != 'A' || t[1] != 'P' || t[2] != 'I' || t[3] != 'C')
		return false;
	end = le32(t + 4);
	if (end < MADT_HEADER_SIZE || end > length)
		return false;
	result->lapic_address = le32(t + 36);
	for (off = MADT_HEADER_SIZE; off < end; off += t[off + 1]) {
		uint32_t apic_id;

		if (end - off < 2 || t[off + 1] < 2 || t[off + 1] > end - off) {
			result->count = 0; /* a table cut short lists nothing */
			return false;
		}
		if (!entry_cpu(t + off, t[off + 1], &apic_id) || seen(cpus, stored, apic_id))
			continue;
		if (stored < max)
			cpus[stored++] = (struct madt_cpu){apic_id};
		result->count++;
	}
	return true;
}

struct cpu_location madt_location(uint32_t apic_id, unsigned thread_bits, unsigned core_bits)
{
	struct cpu_location loc;
	unsigned package_shift = thread_bits + core_bits;

	loc.thread = thread_bits >= 32 ? apic_id : apic_id & ((1U << thread_bits) - 1);
	loc.core = thread_bits >= 32 ? 0 : (apic_id >> thread_bits);
	if (core_bits < 32)
		loc.core &= (1U << core_bits) - 1;
	loc.package = package_shift >= 32 ? 0 : apic_id >> package_shift;
	return loc;
}
