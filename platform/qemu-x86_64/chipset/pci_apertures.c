/* The root bridge's apertures, chosen as OVMF chooses them (edk2 PlatformInitLib
 * PlatformMemMapInitialization and MemDetect), so that QEMU's ACPI _CRS (which it derives
 * from what the firmware programs) and the OS agree with them:
 *  - I/O 0x6000-0xFFFF on q35, 0xC000-0xFFFF on pc;
 *  - 32-bit MMIO up to 0xFC000000 (below the IOAPIC, HPET and LAPIC), from the end of the
 *    ECAM window on q35 (0xC0000000), and on pc from the base of the uncached range OVMF's
 *    MTRRs would cover: 4 GiB - 2^floor(log2(4 GiB - low RAM)), 0x80000000 for 2 GiB;
 *  - 64-bit MMIO: 32 GiB, naturally aligned, above RAM and the hot-plug area
 *    (etc/reserved-memory-end), outside reserved e820 ranges, below 2^phys-bits. */
#include <ember/core/log.h>
#include <ember/lib/util.h>
#include "tables/fw_cfg.h"
#include "cpu/io.h"
#include "chipset/pci_host.h"
#include "qemu.h"
#include "reset/layout.h"

#define GIB (1ULL << 30)
#define FOUR_GIB (4 * GIB)
#define MEM64_SIZE (32 * GIB)
#define MEM32_END 0xfc000000ULL
#define E820_RAM 1
#define E820_RESERVED 2

struct e820_entry {
	uint64_t address;
	uint64_t length;
	uint32_t type;
} __attribute__((packed));

/* Calls fn for each e820 entry; stops when fn returns false. */
static void e820_walk(bool (*fn)(const struct e820_entry *e, void *ctx), void *ctx)
{
	uint16_t select;
	uint32_t size;
	struct e820_entry e;

	if (!fw_cfg_find("etc/e820", &select, &size))
		return;
	for (uint32_t off = 0; off + sizeof(e) <= size; off += sizeof(e)) {
		fw_cfg_read_at(select, off, &e, sizeof(e));
		if (!fn(&e, ctx))
			return;
	}
}

struct ram_ends {
	uint64_t low, high;
};

static bool note_ram(const struct e820_entry *e, void *ctx)
{
	struct ram_ends *ends = ctx;
	uint64_t end = e->address + e->length;

	if (e->type != E820_RAM)
		return true;
	if (end <= FOUR_GIB)
		ends->low = MAX(ends->low, end);
	else
		ends->high = MAX(ends->high, end);
	return true;
}

static uint64_t log2_floor(uint64_t v)
{
	return 63 - (uint64_t)__builtin_clzll(v);
}

static void mem32_aperture(struct pci_apertures *ap, uint64_t low_ram)
{
	uint64_t ecam, ecam_size;
	uint64_t base = FOUR_GIB - (1ULL << log2_floor(FOUR_GIB - MIN(low_ram, FOUR_GIB - 1)));

	/* q35 keeps low RAM below the ECAM window (QEMU splits RAM at 2 GiB from 2.75 GiB). */
	if (chipset_ecam(&ecam, &ecam_size))
		base = MAX(low_ram, ecam + ecam_size);
	ap->mem32_base = base;
	ap->mem32_limit = MEM32_END - 1;
}

struct window_search {
	uint64_t base, size;
	bool moved;
};

/* Moves the candidate window above a reserved range it overlaps (e.g. AMD's HT hole). */
static bool avoid_reserved(const struct e820_entry *e, void *ctx)
{
	struct window_search *w = ctx;
	uint64_t end = e->address + e->length;

	if (e->type == E820_RAM || end <= w->base || e->address >= w->base + w->size)
		return true;
	w->base = ALIGN_UP(end, w->size);
	w->moved = true;
	return false;
}

static uint32_t phys_bits(void)
{
	uint32_t a, b, c, d;

	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a < 0x80000008)
		return 36;
	cpuid(0x80000008, 0, &a, &b, &c, &d);
	return a & 0xff;
}

static void mem64_aperture(struct pci_apertures *ap, uint64_t high_ram)
{
	uint16_t select;
	uint32_t size;
	uint64_t top = MAX(high_ram, FOUR_GIB), reserved_end = 0;
	uint64_t limit = 1ULL << phys_bits();
	struct window_search w = {0, MEM64_SIZE, true};

	if (fw_cfg_find("etc/reserved-memory-end", &select, &size) && size == 8) {
		fw_cfg_read(select, &reserved_end, sizeof(reserved_end));
		top = MAX(top, reserved_end);
	}
	ap->mem64_base = 1;
	ap->mem64_limit = 0;
	/* Halve the window until it fits below the CPU's physical address limit. */
	for (; w.size >= GIB; w.size /= 2) {
		w.base = ALIGN_UP(top, w.size);
		for (int tries = 0; w.moved && tries < 8; tries++) {
			w.moved = false;
			e820_walk(avoid_reserved, &w);
		}
		w.moved = true;
		if (w.base + w.size <= limit)
			break;
	}
	if (w.size < GIB)
		return;
	if (w.base + w.size > ((uint64_t)IDENTITY_GIB << 30) &&
	    !paging_identity_map(w.base, w.base + w.size)) {
		log_warn("pci: cannot map the 64-bit window; no 64-bit aperture\n");
		return;
	}
	ap->mem64_base = w.base;
	ap->mem64_limit = w.base + w.size - 1;
}

void pci_apertures_compute(struct pci_apertures *ap)
{
	struct ram_ends ends = {0, 0};

	e820_walk(note_ram, &ends);
	if (!ends.low)
		ends.low = MIN(fw_cfg_read64(FW_CFG_RAM_SIZE), 0xb0000000ULL);
	ap->io_base = chipset_machine == MACHINE_Q35 ? 0x6000 : 0xc000;
	ap->io_limit = 0xffff;
	mem32_aperture(ap, ends.low);
	mem64_aperture(ap, ends.high);
	log_info("pci: apertures io %llx-%llx mem32 %llx-%llx mem64 %llx-%llx\n", ap->io_base,
		 ap->io_limit, ap->mem32_base, ap->mem32_limit, ap->mem64_base, ap->mem64_limit);
}
